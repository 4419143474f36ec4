import { domainRouter } from "../../http/route";
import { GetIncomeStatement } from "./routes/get-income-statement";

/** /api/v1/income-statement */
export function incomeRouter() {
  const r = domainRouter();
  r.get("/", GetIncomeStatement);
  return r;
}
