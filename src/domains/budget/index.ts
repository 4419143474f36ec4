import { domainRouter } from "../../http/route";
import { GetBudgetConfig, PutBudgetConfig } from "./routes/config";
import { GetGroups, PutGroups } from "./routes/groups";
import { GetBudgetHistoricalAverages, GetBudgetStatus } from "./routes/status";

/** /api/v1/budget: configuration, status and historical averages. */
export function budgetRouter() {
  const r = domainRouter();
  r.get("/config", GetBudgetConfig);
  r.put("/config", PutBudgetConfig);
  r.get("/status", GetBudgetStatus);
  r.get("/historical-averages", GetBudgetHistoricalAverages);
  return r;
}

/** /api/v1/groups: the display groups of a year's budget (same store as the budget config). */
export function groupsRouter() {
  const r = domainRouter();
  r.get("/", GetGroups);
  r.put("/", PutGroups);
  return r;
}
