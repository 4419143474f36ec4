import { contentJson } from "chanfana";
import { z } from "zod";
import { json, route } from "../../../http/route";
import { renameCategory } from "../reassign";
import { CategoryName, CategoryRenameRequest, CategoryRenameResponse } from "../schemas";
import { CategoriesRoute, CONFLICT, IfMatchHeaders, NOT_FOUND } from "./base";

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
