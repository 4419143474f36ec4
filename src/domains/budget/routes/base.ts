import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute } from "../../../http/route";

export const BudgetRoute = domainRoute("budget");
export const GroupsRoute = domainRoute("budget");

export const json = <T>(schema: T, description = "OK") => ({
  "200": { description, content: { "application/json": { schema } } },
});

export const CONFLICT = {
  "409": {
    description:
      "A stale `targets_version`/`groups_version`/`version` (or null while one exists): nothing written",
    content: { "application/json": { schema: ErrorEnvelope } },
  },
};
