import { type AppContext, serviceCtx } from "../../../http/context";
import { CategoriesResponse } from "../schemas";
import { listCategoryNames } from "../service";
import { CategoriesRoute, json } from "./base";

export class ListCategories extends CategoriesRoute {
  override schema = {
    operationId: "listCategories",
    summary: "The category names: the stored list, or the 39 defaults before first use",
    responses: { "200": json("The category list, in list order", CategoriesResponse) },
  };

  override async handle(c: AppContext) {
    return c.json({ categories: await listCategoryNames(serviceCtx(c)) });
  }
}
