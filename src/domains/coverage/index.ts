import { GetCoverage } from "./routes";
import { domainRouter } from "../../http/route";

/** /api/v1/coverage */
export function coverageRouter() {
  const r = domainRouter();
  r.get("/", GetCoverage);
  return r;
}
