import { json, route } from "../../../http/route";
import { deleteCategory } from "../reassign";
import { CategoryDeleteQuery, CategoryDeleteResponse, CategoryNameParam } from "../schemas";
import { CategoriesRoute, CONFLICT, IfMatchHeaders, NOT_FOUND } from "./base";

export const DeleteCategory = route(CategoriesRoute, {
  operationId: "deleteCategory",
  summary: "Delete a category, reassigning its transactions and overrides",
  description:
    "Transactions and overrides move to `reassign_to` (default Miscellaneous), which must be another " +
    "category of the list (422 otherwise). Miscellaneous cannot be deleted (409).",
  request: { params: CategoryNameParam, query: CategoryDeleteQuery, headers: IfMatchHeaders },
  responses: {
    "200": json("The deletion and its reassignment", CategoryDeleteResponse),
    ...NOT_FOUND,
    ...CONFLICT,
  },
  handle: async (ctx, { params, query, headers }) => {
    const result = await deleteCategory(ctx, {
      name: params.name,
      reassignTo: query.reassign_to,
      expectedVersion: headers["if-match"],
    });
    return result;
  },
});
