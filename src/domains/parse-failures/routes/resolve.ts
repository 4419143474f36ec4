import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { FailureIdParams, ManualResolveRequest, ManualResolveResponse } from "../schemas";
import { resolveParseFailure } from "../service";
import { stageTemplate } from "../../templates/routes/base";
import { comparable } from "../../templates/service";
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
    const out = await resolveParseFailure({ ctx: serviceCtx(c), id: params.failure_id, input: body });
    // A merge changes the sender's template: journaled with whole-row images, so it can be undone.
    if (out.merged) {
      const { before, after } = out.merged;
      stageTemplate(
        c,
        after.id,
        comparable(before),
        comparable(after),
        `Taught "${after.name}" a second wording`,
      );
    }
    return c.json(out.response);
  }
}
