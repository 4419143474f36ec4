import { json, route } from "../../../http/route";
import { CategoryIconsResponse, CategoryNameQuery } from "../schemas";
import { setCategoryIcon } from "../service";
import { CategoriesRoute, CONFLICT, IfMatchHeaders, NOT_FOUND } from "./base";

export const ClearCategoryIcon = route(CategoriesRoute, {
  operationId: "clearCategoryIcon",
  summary: "Remove a category's icon (no-op when it has none)",
  request: { query: CategoryNameQuery, headers: IfMatchHeaders },
  responses: {
    "200": json("The icon map after the change", CategoryIconsResponse),
    ...NOT_FOUND,
    ...CONFLICT,
  },
  handle: async (ctx, { query, headers }) => {
    return await setCategoryIcon(ctx, { name: query.name, icon: null, expectedVersion: headers["if-match"] });
  },
});
