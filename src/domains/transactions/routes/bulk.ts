import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { bulkUpdateCategory } from "../bulk";
import { BulkCategoryUpdateRequest, BulkCategoryUpdateResponse } from "../schemas";
import { json, TransactionsRoute } from "./base";

export class BulkUpdateTransactionCategory extends TransactionsRoute {
  override schema = {
    operationId: "bulkUpdateTransactionCategory",
    summary: "Recategorize many transactions at once; per-row results",
    request: { body: { ...contentJson(BulkCategoryUpdateRequest), required: true } },
    responses: json(BulkCategoryUpdateResponse),
  };
  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const res = await bulkUpdateCategory(serviceCtx(c), { updates: body.updates, source: body.source });
    return c.json(res.response);
  }
}
