import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { FailureIdParams, ManualResolveRequest, ManualResolveResponse } from "../schemas";
import { resolveParseFailure } from "../service";
import { CONFLICT, json, NOT_FOUND, ParseFailuresRoute } from "./base";

export class ResolveParseFailure extends ParseFailuresRoute {
  override schema = {
    operationId: "resolveParseFailure",
    summary: "Create the transaction of a quarantined email from hand-entered values",
    request: { params: FailureIdParams, body: { ...contentJson(ManualResolveRequest), required: true } },
    responses: {
      "200": json("The created transaction's key", ManualResolveResponse),
      ...NOT_FOUND,
      ...CONFLICT("Already recovered or resolved, or an identical transaction exists"),
    },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const out = await resolveParseFailure(serviceCtx(c), { id: params.failure_id, input: body });
    return c.json(out.response);
  }
}
