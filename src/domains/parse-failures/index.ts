import {
  DismissParseFailure,
  GetParseFailure,
  ListParseFailures,
  ResolveParseFailure,
  RetryParseFailure,
  GetRetryAllStatus,
  RetryAllParseFailures,
  ParseFailureToFixture,
  ProposeTemplate,
} from "./routes";
import { domainRouter } from "../../http/route";
import { type Reverters, typedReverter } from "../activity/reverters";
import { ResolveImage } from "./schemas";
import { currentResolve, RESOLVE_KIND, undoResolve } from "./service";

export function parseFailuresRouter() {
  const router = domainRouter();
  router.get("/", ListParseFailures);
  router.post("/retry-all", RetryAllParseFailures);
  router.get("/retry-all", GetRetryAllStatus);
  router.get("/:failure_id", GetParseFailure);
  router.delete("/:failure_id", DismissParseFailure);
  router.post("/:failure_id/retry", RetryParseFailure);
  router.get("/:failure_id/template-proposal", ProposeTemplate);
  router.post("/:failure_id/resolve", ResolveParseFailure);
  router.post("/:failure_id/to-fixture", ParseFailureToFixture);
  return router;
}

/** This domain's ledger reverters (app.ts registers them): a resolve's undo. */
export const parseFailureReverters: Reverters = {
  [RESOLVE_KIND]: typedReverter(ResolveImage, {
    current: (ctx, id, images) => currentResolve(ctx, { id, after: images.after }),
    restore: (ctx, id, before, opts) => undoResolve(ctx, { id, before, after: opts.after, opts }),
  }),
};
