import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { MerchantAliasMutationResponse, MerchantAliasPutRequest, RawNameParam } from "../schemas";
import { putAlias } from "../service";
import { AliasRoute, json } from "./base";

export class PutMerchantAlias extends AliasRoute {
  override schema = {
    operationId: "putMerchantAlias",
    summary: "Create or replace an alias: the raw name resolves as the canonical name",
    description:
      "Both names must survive normalization and differ after it (422 otherwise). The resolver cache is " +
      "invalidated at once. Journaled with before/after images, so the activity revert can undo it.",
    request: { params: RawNameParam, body: { ...contentJson(MerchantAliasPutRequest), required: true } },
    responses: { "200": json("Stored", MerchantAliasMutationResponse) },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    await putAlias(serviceCtx(c), { rawName: params.raw_name, canonical: body.canonical_name });
    return c.json({ ok: true });
  }
}
