import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { MerchantAliasMutationResponse, MerchantAliasPutRequest, RawNameParam } from "../schemas";
import { putAlias } from "../service";
import { AliasRoute } from "./base";

export const PutMerchantAlias = route(AliasRoute, {
  operationId: "putMerchantAlias",
  summary: "Create or replace an alias: the raw name resolves as the canonical name",
  description:
    "Both names must survive normalization and differ after it (422 otherwise). The resolver cache is " +
    "invalidated at once. Journaled with before/after images, so the activity revert can undo it.",
  request: { params: RawNameParam, body: { ...contentJson(MerchantAliasPutRequest), required: true } },
  responses: { "200": json("Stored", MerchantAliasMutationResponse) },
  handle: async (ctx, { params, body }) => {
    await putAlias(ctx, { rawName: params.raw_name, canonical: body.canonical_name });
    return { ok: true };
  },
});
