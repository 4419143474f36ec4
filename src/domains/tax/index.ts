import {
  DownloadTaxPackBuild,
  ExportTaxPack,
  GetTaxPackBuild,
  GetTaxLines,
  GetTaxPack,
  ClearTaxOverride,
  SetTaxOverride,
  DeleteTaxMapping,
  GetTaxMapping,
  PutTaxMapping,
} from "./routes";
import { domainRouter } from "../../http/route";
import type { Reverters } from "../activity/reverters";
import { currentMapping, restoreMapping } from "./mapping-store";
import { currentOverride, restoreOverride } from "./service";

export { taxRenameStatements } from "./mapping-store";

/** Mounted at /api/v1/tax-pack. */
export function taxRouter() {
  const r = domainRouter();
  r.get("/", GetTaxPack);
  r.get("/lines", GetTaxLines);
  r.get("/export", ExportTaxPack);
  r.get("/export/jobs/current", GetTaxPackBuild);
  r.get("/export/jobs/:job_id/file", DownloadTaxPackBuild);
  r.get("/mapping", GetTaxMapping);
  r.put("/mapping", PutTaxMapping);
  r.delete("/mapping", DeleteTaxMapping);
  r.post("/items", SetTaxOverride);
  r.delete("/items/:tx_id", ClearTaxOverride);
  return r;
}

/** Activity revert of overrides (resource id: the tx_id) and of the personal mapping. */
export const taxReverters: Reverters = {
  tax_override: {
    current: (ctx, id) => currentOverride(ctx, id),
    restore: (ctx, id, before, opts) =>
      restoreOverride(ctx, { txId: id, image: before, journal: opts.journal }),
  },
  tax_mapping: {
    current: (ctx) => currentMapping(ctx),
    restore: (ctx, _id, before, opts) => restoreMapping(ctx, { image: before, journal: opts.journal }),
  },
};
