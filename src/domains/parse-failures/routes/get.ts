import { type AppContext, serviceCtx } from "../../../http/context";
import { FailureIdParams, ParseFailureDetail } from "../schemas";
import { getParseFailure } from "../service";
import { json, NOT_FOUND, ParseFailuresRoute } from "./base";

export class GetParseFailure extends ParseFailuresRoute {
  override schema = {
    operationId: "getParseFailure",
    summary: "One quarantined email with its body",
    request: { params: FailureIdParams },
    responses: { "200": json("The quarantined email", ParseFailureDetail), ...NOT_FOUND },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getParseFailure(serviceCtx(c), params.failure_id));
  }
}
