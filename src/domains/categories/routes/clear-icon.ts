import { type AppContext, serviceCtx } from "../../../http/context";
import { CategoryIconsResponse, CategoryNameQuery } from "../schemas";
import { setCategoryIcon } from "../service";
import { CategoryManagementRoute, CONFLICT, IfMatchHeaders, json, NOT_FOUND } from "./base";

export class ClearCategoryIcon extends CategoryManagementRoute {
  override schema = {
    operationId: "clearCategoryIcon",
    summary: "Remove a category's icon (no-op when it has none)",
    request: { query: CategoryNameQuery, headers: IfMatchHeaders },
    responses: {
      "200": json("The icon map after the change", CategoryIconsResponse),
      ...NOT_FOUND,
      ...CONFLICT,
    },
  };

  override async handle(c: AppContext) {
    const { query, headers } = await this.getValidatedData<typeof this.schema>();
    const ctx = serviceCtx(c);
    return c.json(
      await setCategoryIcon(ctx, { name: query.name, icon: null, expectedVersion: headers["if-match"] }),
    );
  }
}
