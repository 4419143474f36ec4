import { registerReverter } from "../../../http/activity";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute } from "../../../http/route";
import { currentImage, restoreImage } from "../service";

export const BudgetRoute = domainRoute("budget");
export const GroupsRoute = domainRoute("groups");

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

// budget-targets: the whole year's config (PUT /budget/config writes targets and groups);
// budget-groups: the groups only. Revert writes the before image back as a new version.
for (const kind of ["budget-targets", "budget-groups"] as const) {
  registerReverter(kind, {
    current: (ctx, id) => currentImage(ctx, kind, id),
    restore: (ctx, id, before) => restoreImage(ctx, kind, id, before),
  });
}
