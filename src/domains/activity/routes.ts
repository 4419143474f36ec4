import { domainRoute, json, route } from "../../http/route";
import { ActivityListQuery, ActivityListResponse, RevertQuery, RevertResponse } from "./schemas";
import { listActivity } from "./service";
import { z } from "zod";
import { revertEntry } from "./revert";

export const ActivityRoute = domainRoute("activity");

export const ListActivity = route(ActivityRoute, {
  operationId: "listActivity",
  summary: "The write ledger, newest first",
  description:
    "Every successful mutating call (except the session routes) is an entry, kept 90 days. " +
    "`principal=me` lists the caller's own writes (by token id, or by kind for sessions and TOFU).",
  request: { query: ActivityListQuery },
  responses: {
    "200": json("Entries", ActivityListResponse),
  },
  handle: async (ctx, { query }) => ({ entries: await listActivity(ctx, query) }),
});

export const RevertActivity = route(ActivityRoute, {
  operationId: "revertActivity",
  summary: "Undo one ledger entry by restoring its before image",
  description:
    "404 unknown id; 409 CONFLICT when already reverted or not reversible; 409 stale_revert when the " +
    "resource changed since the entry (unless force=true); 409 CATEGORY_DELETED when the before image " +
    "names a category deleted since (details.categories), unless force=true, which recreates it and " +
    "lists it in recreated_categories. The revert is journaled as its own entry " +
    "(images kept, not itself reversible) and the original gets reverted_at/reverted_by.",
  request: { params: z.object({ entry_id: z.string().min(1).max(100) }), query: RevertQuery },
  responses: {
    "200": json("Reverted", RevertResponse),
  },
  handle: async (ctx, { params, query }) => {
    const { summary, recreated_categories } = await revertEntry(ctx, {
      id: params.entry_id,
      force: query.force,
    });
    return { reverted_entry_id: params.entry_id, summary, recreated_categories };
  },
});
