import { GetSetupStatus, GetDemoDataStatus, SeedDemoData } from "./routes";
import { domainRouter } from "../../http/route";

/** /api/v1/setup: the first-run screen's facts and its demo-data offer. */
export function setupRouter() {
  const r = domainRouter();
  r.get("/status", GetSetupStatus);
  r.post("/demo-data", SeedDemoData);
  r.get("/demo-data", GetDemoDataStatus);
  return r;
}
