import { contentJson } from "chanfana";
import { ok, route } from "../../../http/route";
import {
  DeleteRequest,
  DeleteResponse,
  IgnoreRequest,
  IgnoreResponse,
  PermanentDeleteResponse,
  ReviewResponse,
  TxIdParams,
} from "../schemas";
import { markReviewed, permanentlyDelete, setIgnored, softDelete } from "../service";
import { TransactionsRoute } from "./base";

export const SoftDeleteTransaction = route(TransactionsRoute, {
  operationId: "softDeleteTransaction",
  summary: "Move to the trash (deleted: true) or restore (deleted: false)",
  request: { params: TxIdParams, body: { ...contentJson(DeleteRequest), required: true } },
  responses: ok(DeleteResponse),
  handle: async (ctx, { params, body }) =>
    (await softDelete(ctx, { txId: params.tx_id, deleted: body.deleted })).response,
});

export const SetTransactionIgnored = route(TransactionsRoute, {
  operationId: "setTransactionIgnored",
  summary: "Exclude from (or return to) summaries and the journal",
  request: { params: TxIdParams, body: { ...contentJson(IgnoreRequest), required: true } },
  responses: ok(IgnoreResponse),
  handle: async (ctx, { params, body }) =>
    (await setIgnored(ctx, { txId: params.tx_id, ignored: body.ignored })).response,
});

export const MarkTransactionReviewed = route(TransactionsRoute, {
  operationId: "markTransactionReviewed",
  summary: "Review-only mark: the category stays, the audit records the review",
  request: { params: TxIdParams },
  responses: ok(ReviewResponse),
  handle: async (ctx, { params }) => (await markReviewed(ctx, params.tx_id)).response,
});

export const PermanentlyDeleteTransaction = route(TransactionsRoute, {
  operationId: "permanentlyDeleteTransaction",
  summary: "Delete a trashed transaction for good (409 unless it is in the trash)",
  request: { params: TxIdParams },
  responses: ok(PermanentDeleteResponse),
  handle: async (ctx, { params }) => permanentlyDelete(ctx, params.tx_id),
});
