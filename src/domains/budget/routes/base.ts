import { domainRoute, errors } from "../../../http/route";

export const BudgetRoute = domainRoute("budget");

export const CONFLICT = errors({
  "409": "A stale `targets_version`/`groups_version`/`version` (or null while one exists): nothing written",
});
