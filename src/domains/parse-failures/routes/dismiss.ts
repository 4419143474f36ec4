import { json, route } from "../../../http/route";
import { DismissResponse, FailureIdParams } from "../schemas";
import { dismissParseFailure } from "../service";
import { NOT_FOUND, ParseFailuresRoute } from "./base";

export const DismissParseFailure = route(ParseFailuresRoute, {
  operationId: "dismissParseFailure",
  summary: "Dismiss a quarantined email (it leaves the default listing)",
  request: { params: FailureIdParams },
  responses: { "200": json("Dismissed", DismissResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => dismissParseFailure(ctx, params.failure_id),
});
