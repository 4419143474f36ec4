import { type AppContext, serviceCtx } from "../../../http/context";
import { CategoryIconsResponse } from "../schemas";
import { listCategoryIcons } from "../service";
import { CategoryManagementRoute, json } from "./base";

export class ListCategoryIcons extends CategoryManagementRoute {
  override schema = {
    operationId: "listCategoryIcons",
    summary: "Category icons (category name → icon) with the list version",
    responses: { "200": json("The icon map", CategoryIconsResponse) },
  };

  override async handle(c: AppContext) {
    return c.json(await listCategoryIcons(serviceCtx(c)));
  }
}
