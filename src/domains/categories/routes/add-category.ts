import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { CategoriesManagementResponse, CategoryAddRequest } from "../schemas";
import { addCategory } from "../service";
import { CategoriesRoute, CONFLICT, IfMatchHeaders } from "./base";

export const AddCategory = route(CategoriesRoute, {
  operationId: "addCategory",
  summary: "Add a category (names are unique case-insensitively)",
  description: "The first write stores the 39 defaults, so the stored list replaces them from then on.",
  request: { headers: IfMatchHeaders, body: { ...contentJson(CategoryAddRequest), required: true } },
  responses: { "200": json("The list after the add", CategoriesManagementResponse), ...CONFLICT },
  handle: async (ctx, { body, headers }) =>
    addCategory(ctx, { input: body, expectedVersion: headers["if-match"] }),
});
