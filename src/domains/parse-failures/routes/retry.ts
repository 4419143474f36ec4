import { json, route } from "../../../http/route";
import { FailureIdParams, RetryResponse } from "../schemas";
import { retryParseFailure } from "../service";
import { CONFLICT, NOT_FOUND, ParseFailuresRoute } from "./base";

export const RetryParseFailure = route(ParseFailuresRoute, {
  operationId: "retryParseFailure",
  summary: "Re-run the deterministic parsers on the stored raw email",
  request: { params: FailureIdParams },
  responses: {
    "200": json("recovered, duplicate, or still_failing (with the new failure stage)", RetryResponse),
    ...NOT_FOUND,
    ...CONFLICT("Already recovered or resolved"),
  },
  handle: async (ctx, { params }) => retryParseFailure(ctx, { id: params.failure_id }),
});
