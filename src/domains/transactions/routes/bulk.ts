import { contentJson } from "chanfana";
import { ok, route } from "../../../http/route";
import { bulkUpdateCategory } from "../bulk";
import { BulkCategoryUpdateRequest, BulkCategoryUpdateResponse } from "../schemas";
import { TransactionsRoute } from "./base";

export const BulkUpdateTransactionCategory = route(TransactionsRoute, {
  operationId: "bulkUpdateTransactionCategory",
  summary: "Recategorize many transactions at once; per-row results",
  request: { body: { ...contentJson(BulkCategoryUpdateRequest), required: true } },
  responses: ok(BulkCategoryUpdateResponse),
  handle: async (ctx, { body }) =>
    (await bulkUpdateCategory(ctx, { updates: body.updates, source: body.source })).response,
});
