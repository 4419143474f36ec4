import { json, route } from "../../../http/route";
import { ListQuery, ParseFailureListResponse } from "../schemas";
import { listParseFailures } from "../service";
import { ParseFailuresRoute } from "./base";

export const ListParseFailures = route(ParseFailuresRoute, {
  operationId: "listParseFailures",
  summary: "Quarantined emails, newest first (without a filter: every status but dismissed)",
  request: { query: ListQuery },
  responses: { "200": json("The quarantine", ParseFailureListResponse) },
  handle: async (ctx, { query }) =>
    listParseFailures(ctx, { status: query.status ?? null, limit: query.limit }),
});
