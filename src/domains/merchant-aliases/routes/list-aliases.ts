import { json, route } from "../../../http/route";
import { MerchantAliasListResponse } from "../schemas";
import { listAliases } from "../service";
import { AliasRoute } from "./base";

export const ListMerchantAliases = route(AliasRoute, {
  operationId: "listMerchantAliases",
  summary: "Merchant aliases (raw name → canonical name) used by override tier 2",
  responses: { "200": json("The aliases with the list version", MerchantAliasListResponse) },
  handle: async (ctx) => listAliases(ctx),
});
