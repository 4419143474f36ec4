import {
  ConsolidateOverrides,
  DeleteOverride,
  DismissOverrideSuggestion,
  GetOverrideSuggestions,
  ListOverrideDuplicates,
  ListOverrides,
  MatchOverride,
  PutOverride,
  UndismissOverrideSuggestion,
} from "./routes";
import { domainRouter } from "../../http/route";
import { z } from "zod";
import { type Reverters, typedReverter } from "../activity/reverters";
import { consolidationReverter } from "./consolidation-revert";
import { dismissalReverter } from "./dismissal-revert";
import { currentOverride, restoreOverride } from "./service";

/** Mounted at /api/v1/overrides. Fixed paths register before `/:company`. */
export function overridesRouter() {
  const router = domainRouter();
  router.get("/", ListOverrides);
  router.get("/suggestions", GetOverrideSuggestions);
  router.post("/suggestions/dismissed", DismissOverrideSuggestion);
  router.delete("/suggestions/dismissed/:key", UndismissOverrideSuggestion);
  router.get("/match", MatchOverride);
  router.get("/duplicates", ListOverrideDuplicates);
  router.post("/consolidate", ConsolidateOverrides);
  router.put("/:company", PutOverride);
  router.delete("/:company", DeleteOverride);
  return router;
}

/** An override's image: the override, or `{}`/null when it did not exist (any other object reads as that). */
const OverrideImage = z
  .object({ company: z.string(), category: z.string() })
  .or(z.object({}).transform(() => null))
  .nullable();

/** Activity revert of override put/delete: the resource id is the company key. */
export const overrideReverters: Reverters = {
  override: typedReverter(OverrideImage, {
    current: (ctx, company) => currentOverride(ctx, company),
    restore: (ctx, company, before, opts) => restoreOverride(ctx, { company, before, opts }),
  }),
  override_suggestion_dismissal: dismissalReverter,
  override_consolidation: consolidationReverter,
};
