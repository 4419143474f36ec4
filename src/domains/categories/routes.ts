import { z } from "zod";
import { ErrorEnvelope } from "../../http/errors";
import { domainRoute, errors, json, route } from "../../http/route";
import { parseIfMatch } from "./rules";
import { contentJson } from "chanfana";
import {
  CategoriesManagementResponse,
  CategoryAddRequest,
  CategoryIconsResponse,
  CategoryNameQuery,
  CategoryDeleteQuery,
  CategoryDeleteResponse,
  CategoryNameParam,
  CategoryUsageResponse,
  CategoriesResponse,
  CategoryName,
  CategoryRenameRequest,
  CategoryRenameResponse,
  SetCategoryIconRequest,
  CategoryGroupUpdateRequest,
  CategoryGroupUpdateResponse,
} from "./schemas";
import {
  addCategory,
  setCategoryIcon,
  listCategoryNames,
  listCategoryIcons,
  listManagedCategories,
  updateCategoryGroup,
} from "./service";
import { deleteCategory, categoryUsage, renameCategory } from "./reassign";

export const CategoriesRoute = domainRoute("categories");

export const NOT_FOUND = errors({ "404": "No such category (case-insensitive)" });
export const CONFLICT = {
  "409": json("Stale `If-Match` version, a duplicate name, or Miscellaneous is protected", ErrorEnvelope),
};

/**
 * Optional optimistic lock on category writes: `If-Match: <version>` from the managed list, read
 * by the request schema into the version (absent or `*` → null; not a version → 422).
 */
export const IfMatchHeaders = z.object({
  "if-match": z
    .string()
    .nullable()
    .optional()
    .refine((h) => parseIfMatch(h) !== "invalid", "must be a list version (integer)")
    .transform((h) => parseIfMatch(h) as number | null)
    .describe("The list `version` this write is based on; a stale version gives 409 CONFLICT"),
});

export const AddCategory = route(CategoriesRoute, {
  operationId: "addCategory",
  summary: "Add a category (names are unique case-insensitively)",
  description: "The first write stores the 39 defaults, so the stored list replaces them from then on.",
  request: { headers: IfMatchHeaders, body: { ...contentJson(CategoryAddRequest), required: true } },
  responses: { "200": json("The list after the add", CategoriesManagementResponse), ...CONFLICT },
  handle: async (ctx, { body, headers }) =>
    addCategory(ctx, { input: body, expectedVersion: headers["if-match"] }),
});

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

export const GetCategoryUsage = route(CategoriesRoute, {
  operationId: "getCategoryUsage",
  summary: "How many transactions and overrides use a category (shown before deleting it)",
  request: { params: CategoryNameParam },
  responses: { "200": json("Usage of the category", CategoryUsageResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => categoryUsage(ctx, params.name),
});

export const ListCategories = route(CategoriesRoute, {
  operationId: "listCategories",
  summary: "The category names: the stored list, or the 39 defaults before first use",
  responses: { "200": json("The category list, in list order", CategoriesResponse) },
  handle: async (ctx) => ({ categories: await listCategoryNames(ctx) }),
});

export const ListCategoryIcons = route(CategoriesRoute, {
  operationId: "listCategoryIcons",
  summary: "Category icons (category name → icon) with the list version",
  responses: { "200": json("The icon map", CategoryIconsResponse) },
  handle: async (ctx) => listCategoryIcons(ctx),
});

export const ListManagedCategories = route(CategoriesRoute, {
  operationId: "listManagedCategories",
  summary: "The category list with groups and the list version (for `If-Match`)",
  responses: { "200": json("Categories with their groups", CategoriesManagementResponse) },
  handle: async (ctx) => listManagedCategories(ctx),
});

export const RenameCategory = route(CategoriesRoute, {
  operationId: "renameCategory",
  summary: "Rename a category, moving its transactions and overrides to the new name",
  description:
    "Miscellaneous cannot be renamed (409). A new name used by another category gives 409; a change " +
    "of case only is allowed. Lowercased transaction rows stay lowercased.",
  request: {
    params: z.object({ old_name: CategoryName }),
    headers: IfMatchHeaders,
    body: { ...contentJson(CategoryRenameRequest), required: true },
  },
  responses: { "200": json("What the rename changed", CategoryRenameResponse), ...NOT_FOUND, ...CONFLICT },
  handle: async (ctx, { params, body, headers }) => {
    const result = await renameCategory(ctx, {
      oldName: params.old_name,
      newName: body.new_name,
      expectedVersion: headers["if-match"],
    });
    return result;
  },
});

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
