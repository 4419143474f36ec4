import { z } from "zod";
import { json, route } from "../../../http/route";
import { RevertQuery, RevertResponse } from "../schemas";
import { revertEntry } from "../revert";
import { ActivityRoute } from "./list-activity";

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
