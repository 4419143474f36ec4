import { json, route } from "../../../http/route";
import { FailureIdParams, ParseFailureDetail } from "../schemas";
import { getParseFailure } from "../service";
import { NOT_FOUND, ParseFailuresRoute } from "./base";

export const GetParseFailure = route(ParseFailuresRoute, {
  operationId: "getParseFailure",
  summary: "One quarantined email with its body",
  request: { params: FailureIdParams },
  responses: { "200": json("The quarantined email", ParseFailureDetail), ...NOT_FOUND },
  handle: async (ctx, { params }) => getParseFailure(ctx, params.failure_id),
});
