import { contentJson } from "chanfana";
import { ok, route } from "../../../http/route";
import {
  CategoryUpdateRequest,
  CategoryUpdateResponse,
  CommentRequest,
  CommentResponse,
  TransactionFieldsUpdateRequest,
  TransactionFieldsUpdateResponse,
  TxIdParams,
} from "../schemas";
import { patchTransaction, setComment, updateFields } from "../service";
import { TransactionsRoute } from "./base";

export const PatchTransaction = route(TransactionsRoute, {
  operationId: "patchTransaction",
  summary: "Correct the category, mark reviewed, or change state (active, ignored, trashed)",
  request: { params: TxIdParams, body: { ...contentJson(CategoryUpdateRequest), required: true } },
  responses: ok(CategoryUpdateResponse),
  handle: async (ctx, { params, body }) =>
    (await patchTransaction(ctx, { txId: params.tx_id, input: body })).response,
});

export const SetTransactionComment = route(TransactionsRoute, {
  operationId: "setTransactionComment",
  summary: "Set or clear the note on a transaction",
  request: { params: TxIdParams, body: { ...contentJson(CommentRequest), required: true } },
  responses: ok(CommentResponse),
  handle: async (ctx, { params, body }) =>
    (await setComment(ctx, { txId: params.tx_id, comment: body.comment })).response,
});

export const UpdateTransactionFields = route(TransactionsRoute, {
  operationId: "updateTransactionFields",
  summary: "Correct amount, company or type (parser mistakes)",
  request: { params: TxIdParams, body: { ...contentJson(TransactionFieldsUpdateRequest), required: true } },
  responses: ok(TransactionFieldsUpdateResponse),
  handle: async (ctx, { params, body }) =>
    (await updateFields(ctx, { txId: params.tx_id, input: body })).response,
});
