import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { CategoryIconsResponse, CategoryNameQuery, SetCategoryIconRequest } from "../schemas";
import { setCategoryIcon } from "../service";
import { CategoriesRoute, CONFLICT, IfMatchHeaders, NOT_FOUND } from "./base";

export const SetCategoryIcon = route(CategoriesRoute, {
  operationId: "setCategoryIcon",
  summary: "Set a category's icon (an emoji or an icon name)",
  request: {
    query: CategoryNameQuery,
    headers: IfMatchHeaders,
    body: { ...contentJson(SetCategoryIconRequest), required: true },
  },
  responses: {
    "200": json("The icon map after the change", CategoryIconsResponse),
    ...NOT_FOUND,
    ...CONFLICT,
  },
  handle: async (ctx, { query, body, headers }) => {
    return await setCategoryIcon(ctx, {
      name: query.name,
      icon: body.icon,
      expectedVersion: headers["if-match"],
    });
  },
});
