import { DeleteMerchantAlias, ListMerchantAliases, PutMerchantAlias } from "./routes";
import { domainRouter } from "../../http/route";
import type { Reverters } from "../activity/reverters";
import { currentAlias, restoreAlias } from "./service";

/** Mounted at /api/v1/merchant-aliases. */
export function merchantAliasesRouter() {
  const router = domainRouter();
  router.get("/", ListMerchantAliases);
  router.put("/:raw_name", PutMerchantAlias);
  router.delete("/:raw_name", DeleteMerchantAlias);
  return router;
}

/** Activity revert of alias put/delete: the resource id is the raw name. */
export const aliasReverters: Reverters = {
  alias: {
    current: (ctx, rawName) => currentAlias(ctx, rawName),
    restore: (ctx, rawName, before, opts) => restoreAlias(ctx, { rawName, before, journal: opts.journal }),
  },
};
