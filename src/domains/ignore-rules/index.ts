import { domainRouter } from "../../http/route";
import { AddIgnoreRule } from "./routes/add-rule";
import { ApplyIgnoreRules } from "./routes/apply-rules";
import { DeleteIgnoreRule } from "./routes/delete-rule";
import { DismissIgnoreRuleSuggestion } from "./routes/dismiss-suggestion";
import { GetIgnoreRuleSuggestions } from "./routes/get-suggestions";
import { ListDismissedIgnoreRuleSuggestions } from "./routes/list-dismissed";
import { ListIgnoreRules } from "./routes/list-rules";
import { UndismissIgnoreRuleSuggestion } from "./routes/undismiss-suggestion";

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
