import {
  AddIgnoreRule,
  ApplyIgnoreRules,
  DeleteIgnoreRule,
  DismissIgnoreRuleSuggestion,
  GetIgnoreRuleSuggestions,
  ListDismissedIgnoreRuleSuggestions,
  ListIgnoreRules,
  UndismissIgnoreRuleSuggestion,
} from "./routes";
import { domainRouter } from "../../http/route";

/** Mounted at /api/v1/ignore-rules. Fixed paths register before `/:pattern`. */
export function ignoreRulesRouter() {
  const router = domainRouter();
  router.get("/", ListIgnoreRules);
  router.post("/", AddIgnoreRule);
  router.post("/apply", ApplyIgnoreRules);
  router.get("/suggestions", GetIgnoreRuleSuggestions);
  router.get("/suggestions/dismissed", ListDismissedIgnoreRuleSuggestions);
  router.post("/suggestions/dismissed", DismissIgnoreRuleSuggestion);
  router.delete("/suggestions/dismissed/:merchant", UndismissIgnoreRuleSuggestion);
  router.delete("/:pattern", DeleteIgnoreRule);
  return router;
}
