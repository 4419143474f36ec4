import { domainRoute, errors, json, route } from "../../http/route";
import {
  MerchantAliasMutationResponse,
  RawNameParam,
  MerchantAliasListResponse,
  MerchantAliasPutRequest,
} from "./schemas";
import { deleteAlias, listAliases, putAlias } from "./service";
import { contentJson } from "chanfana";

export const AliasRoute = domainRoute("merchant-aliases");

export const NOT_FOUND = errors({ "404": "No alias for this raw name (case-insensitive)" });

export const DeleteMerchantAlias = route(AliasRoute, {
  operationId: "deleteMerchantAlias",
  summary: "Remove an alias (404 when there is none)",
  description: "The resolver cache is invalidated at once. Journaled with before/after images (revertable).",
  request: { params: RawNameParam },
  responses: { "200": json("Removed", MerchantAliasMutationResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => {
    await deleteAlias(ctx, params.raw_name);
    return { ok: true };
  },
});

export const ListMerchantAliases = route(AliasRoute, {
  operationId: "listMerchantAliases",
  summary: "Merchant aliases (raw name → canonical name) used by override tier 2",
  responses: { "200": json("The aliases with the list version", MerchantAliasListResponse) },
  handle: async (ctx) => listAliases(ctx),
});

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
