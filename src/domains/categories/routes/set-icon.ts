import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { CategoryIconsResponse, CategoryNameQuery, SetCategoryIconRequest } from "../schemas";
import { setCategoryIcon } from "../service";
import { CategoryManagementRoute, CONFLICT, IfMatchHeaders, json, NOT_FOUND } from "./base";

export class SetCategoryIcon extends CategoryManagementRoute {
  override schema = {
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
  };

  override async handle(c: AppContext) {
    const { query, body, headers } = await this.getValidatedData<typeof this.schema>();
    const ctx = serviceCtx(c);
    return c.json(
      await setCategoryIcon(ctx, { name: query.name, icon: body.icon, expectedVersion: headers["if-match"] }),
    );
  }
}
