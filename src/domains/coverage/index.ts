import { domainRouter } from "../../http/route";
import { GetCoverage } from "./routes/get-coverage";

/** /api/v1/coverage */
export function coverageRouter() {
  const r = domainRouter();
  r.get("/", GetCoverage);
  return r;
}
