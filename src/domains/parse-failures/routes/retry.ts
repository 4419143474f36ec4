import { type AppContext, serviceCtx } from "../../../http/context";
import { FailureIdParams, RetryResponse } from "../schemas";
import { retryParseFailure } from "../service";
import { CONFLICT, json, NOT_FOUND, ParseFailuresRoute } from "./base";

export class RetryParseFailure extends ParseFailuresRoute {
  override schema = {
    operationId: "retryParseFailure",
    summary: "Re-run the deterministic parsers on the stored raw email",
    request: { params: FailureIdParams },
    responses: {
      "200": json("recovered, duplicate, or still_failing (with the new failure stage)", RetryResponse),
      ...NOT_FOUND,
      ...CONFLICT("Already recovered or resolved"),
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await retryParseFailure(serviceCtx(c), { id: params.failure_id }));
  }
}
