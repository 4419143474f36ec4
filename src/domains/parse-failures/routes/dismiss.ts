import { type AppContext, serviceCtx } from "../../../http/context";
import { DismissResponse, FailureIdParams } from "../schemas";
import { dismissParseFailure } from "../service";
import { json, NOT_FOUND, ParseFailuresRoute } from "./base";

export class DismissParseFailure extends ParseFailuresRoute {
  override schema = {
    operationId: "dismissParseFailure",
    summary: "Dismiss a quarantined email (it leaves the default listing)",
    request: { params: FailureIdParams },
    responses: { "200": json("Dismissed", DismissResponse), ...NOT_FOUND },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await dismissParseFailure(serviceCtx(c), params.failure_id));
  }
}
