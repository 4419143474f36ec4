import { json, route } from "../../../http/route";
import { CategoriesResponse } from "../schemas";
import { listCategoryNames } from "../service";
import { CategoriesRoute } from "./base";

export const ListCategories = route(CategoriesRoute, {
  operationId: "listCategories",
  summary: "The category names: the stored list, or the 39 defaults before first use",
  responses: { "200": json("The category list, in list order", CategoriesResponse) },
  handle: async (ctx) => ({ categories: await listCategoryNames(ctx) }),
});
