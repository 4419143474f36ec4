import { type AppContext, serviceCtx } from "../../../http/context";
import { categoryUsage } from "../reassign";
import { CategoryNameParam, CategoryUsageResponse } from "../schemas";
import { CategoryManagementRoute, json, NOT_FOUND } from "./base";

export class GetCategoryUsage extends CategoryManagementRoute {
  override schema = {
    operationId: "getCategoryUsage",
    summary: "How many transactions and overrides use a category (shown before deleting it)",
    request: { params: CategoryNameParam },
    responses: { "200": json("Usage of the category", CategoryUsageResponse), ...NOT_FOUND },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await categoryUsage(serviceCtx(c), params.name));
  }
}
