import { GetIncomeStatement } from "./routes";
import { domainRouter } from "../../http/route";

/** /api/v1/income-statement */
export function incomeRouter() {
  const r = domainRouter();
  r.get("/", GetIncomeStatement);
  return r;
}
