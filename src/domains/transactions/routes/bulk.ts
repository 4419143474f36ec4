import { contentJson } from "chanfana";
import { serviceCtx } from "../../../http/context";
import { ok, route } from "../../../http/route";
import { bulkUpdateCategory } from "../bulk";
import { BulkCategoryUpdateRequest, BulkCategoryUpdateResponse } from "../schemas";
import { TransactionsRoute } from "./base";

export const BulkUpdateTransactionCategory = route(TransactionsRoute, {
  operationId: "bulkUpdateTransactionCategory",
  summary: "Recategorize many transactions at once; per-row results",
  request: { body: { ...contentJson(BulkCategoryUpdateRequest), required: true } },
  responses: ok(BulkCategoryUpdateResponse),
  handle: async (c, { body }) =>
    (await bulkUpdateCategory(serviceCtx(c), { updates: body.updates, source: body.source })).response,
});
