import { json, route } from "../../../http/route";
import { matchOverride } from "../match";
import { MatchQuery, OverrideMatchResponse } from "../schemas";
import { OverridesRoute } from "./base";

export const MatchOverride = route(OverridesRoute, {
  operationId: "matchOverride",
  summary: "Which override would apply to a company, and by which tier",
  description:
    "Tiers exact, normalized and alias mirror the categorizer (ambiguous normalized groups are skipped). " +
    "Fuzzy candidates (cosine similarity at or above `min_score`) need a model API key. At most 5 candidates.",
  request: { query: MatchQuery },
  responses: { "200": json("The top match and the candidates", OverrideMatchResponse) },
  handle: async (ctx, { query }) => matchOverride(ctx, { input: query }),
});
