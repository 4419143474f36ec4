import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { CategoryGroupUpdateRequest, CategoryGroupUpdateResponse, CategoryNameParam } from "../schemas";
import { updateCategoryGroup } from "../service";
import { CategoriesRoute, CONFLICT, IfMatchHeaders, NOT_FOUND } from "./base";

export const UpdateCategoryGroup = route(CategoriesRoute, {
  operationId: "updateCategoryGroup",
  summary: "Move a category to a display group (null removes it from any group)",
  request: {
    params: CategoryNameParam,
    headers: IfMatchHeaders,
    body: { ...contentJson(CategoryGroupUpdateRequest), required: true },
  },
  responses: {
    "200": json("The old and new group", CategoryGroupUpdateResponse),
    ...NOT_FOUND,
    ...CONFLICT,
  },
  handle: async (ctx, { params, body, headers }) => {
    const result = await updateCategoryGroup(ctx, {
      name: params.name,
      group: body.group,
      expectedVersion: headers["if-match"],
    });
    return result;
  },
});
