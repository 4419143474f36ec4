import { type AppContext, serviceCtx } from "../../../http/context";
import { CategoriesManagementResponse } from "../schemas";
import { listManagedCategories } from "../service";
import { CategoryManagementRoute, json } from "./base";

export class ListManagedCategories extends CategoryManagementRoute {
  override schema = {
    operationId: "listManagedCategories",
    summary: "The category list with groups and the list version (for `If-Match`)",
    responses: { "200": json("Categories with their groups", CategoriesManagementResponse) },
  };

  override async handle(c: AppContext) {
    return c.json(await listManagedCategories(serviceCtx(c)));
  }
}
