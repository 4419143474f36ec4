import {
  GetBudgetConfig,
  PutBudgetConfig,
  GetGroups,
  PutGroups,
  GetBudgetHistoricalAverages,
  GetBudgetStatus,
} from "./routes";
import { domainRouter } from "../../http/route";
import type { Reverter, Reverters } from "../activity/reverters";
import { currentImage, restoreImage } from "./service";

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

// Revert writes the before image back as a new version (the images: budget/service.ts).
const budgetReverter = (kind: "budget-targets" | "budget-groups"): Reverter => ({
  current: (ctx, id) => currentImage(ctx, { kind, id }),
  restore: (ctx, id, before, opts) => restoreImage(ctx, { kind, id, before, journal: opts.journal }),
});

/** This domain's ledger reverters (app.ts registers them). */
export const budgetReverters: Reverters = {
  "budget-targets": budgetReverter("budget-targets"),
  "budget-groups": budgetReverter("budget-groups"),
};
