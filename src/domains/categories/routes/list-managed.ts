import { json, route } from "../../../http/route";
import { CategoriesManagementResponse } from "../schemas";
import { listManagedCategories } from "../service";
import { CategoriesRoute } from "./base";

export const ListManagedCategories = route(CategoriesRoute, {
  operationId: "listManagedCategories",
  summary: "The category list with groups and the list version (for `If-Match`)",
  responses: { "200": json("Categories with their groups", CategoriesManagementResponse) },
  handle: async (ctx) => listManagedCategories(ctx),
});
