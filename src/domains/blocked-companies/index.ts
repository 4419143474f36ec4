import { UnblockCompany, ListBlockedCompanies, BlockCompany } from "./routes";
import { domainRouter } from "../../http/route";
import type { Reverters } from "../activity/reverters";
import { currentBlocked, restoreBlocked } from "./service";

/** Mounted at /api/v1/blocked-companies. */
export function blockedCompaniesRouter() {
  const router = domainRouter();
  router.get("/", ListBlockedCompanies);
  router.put("/:company", BlockCompany);
  router.delete("/:company", UnblockCompany);
  return router;
}

/** Activity revert of block/unblock: the resource id is the lower-cased name. */
export const blockedCompanyReverters: Reverters = {
  blocked_company: {
    current: (ctx, key) => currentBlocked(ctx, key),
    restore: (ctx, key, before, opts) => restoreBlocked(ctx, { key, before, journal: opts.journal }),
  },
};
