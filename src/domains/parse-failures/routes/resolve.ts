import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { FailureIdParams, ManualResolveRequest, ManualResolveResponse } from "../schemas";
import { resolveParseFailure } from "../service";
import { CONFLICT, NOT_FOUND, ParseFailuresRoute } from "./base";

export const ResolveParseFailure = route(ParseFailuresRoute, {
  operationId: "resolveParseFailure",
  summary: "Create the transaction of a quarantined email from hand-entered values",
  request: { params: FailureIdParams, body: { ...contentJson(ManualResolveRequest), required: true } },
  responses: {
    "200": json("The created transaction's key", ManualResolveResponse),
    ...NOT_FOUND,
    ...CONFLICT("Already recovered or resolved, or an identical transaction exists"),
  },
  handle: async (ctx, { params, body }) =>
    (await resolveParseFailure(ctx, { id: params.failure_id, input: body })).response,
});
