import { json, route } from "../../../http/route";
import { CategoryIconsResponse } from "../schemas";
import { listCategoryIcons } from "../service";
import { CategoriesRoute } from "./base";

export const ListCategoryIcons = route(CategoriesRoute, {
  operationId: "listCategoryIcons",
  summary: "Category icons (category name → icon) with the list version",
  responses: { "200": json("The icon map", CategoryIconsResponse) },
  handle: async (ctx) => listCategoryIcons(ctx),
});
