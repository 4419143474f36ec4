import { domainRouter } from "../../http/route";
import { ExportFullBackup } from "./routes/export";

export function dataRouter() {
  const r = domainRouter();
  r.get("/export", ExportFullBackup);
  return r;
}
