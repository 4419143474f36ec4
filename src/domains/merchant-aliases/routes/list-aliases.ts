import { type AppContext, serviceCtx } from "../../../http/context";
import { MerchantAliasListResponse } from "../schemas";
import { listAliases } from "../service";
import { AliasRoute, json } from "./base";

export class ListMerchantAliases extends AliasRoute {
  override schema = {
    operationId: "listMerchantAliases",
    summary: "Merchant aliases (raw name → canonical name) used by override tier 2",
    responses: { "200": json("The aliases with the list version", MerchantAliasListResponse) },
  };

  override async handle(c: AppContext) {
    return c.json(await listAliases(serviceCtx(c)));
  }
}
