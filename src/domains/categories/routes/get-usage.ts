import { json, route } from "../../../http/route";
import { categoryUsage } from "../reassign";
import { CategoryNameParam, CategoryUsageResponse } from "../schemas";
import { CategoriesRoute, NOT_FOUND } from "./base";

export const GetCategoryUsage = route(CategoriesRoute, {
  operationId: "getCategoryUsage",
  summary: "How many transactions and overrides use a category (shown before deleting it)",
  request: { params: CategoryNameParam },
  responses: { "200": json("Usage of the category", CategoryUsageResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => categoryUsage(ctx, params.name),
});
