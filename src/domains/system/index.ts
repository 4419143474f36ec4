import { domainRouter } from "../../http/route";
import { GetSetupStatus } from "./routes/get-setup-status";
import { GetDemoDataStatus, SeedDemoData } from "./routes/seed-demo-data";

/** /api/v1/setup: the first-run screen's facts and its demo-data offer. */
export function setupRouter() {
  const r = domainRouter();
  r.get("/status", GetSetupStatus);
  r.post("/demo-data", SeedDemoData);
  r.get("/demo-data", GetDemoDataStatus);
  return r;
}
