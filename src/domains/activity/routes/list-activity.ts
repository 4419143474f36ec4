import { domainRoute, json, route } from "../../../http/route";
import { ActivityListQuery, ActivityListResponse } from "../schemas";
import { listActivity } from "../service";

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
