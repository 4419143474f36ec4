import { contentJson } from "chanfana";
import { serviceCtx } from "../../../http/context";
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
  handle: async (c, { params, body }) =>
    (await softDelete(serviceCtx(c), { txId: params.tx_id, deleted: body.deleted })).response,
});

export const SetTransactionIgnored = route(TransactionsRoute, {
  operationId: "setTransactionIgnored",
  summary: "Exclude from (or return to) summaries and the journal",
  request: { params: TxIdParams, body: { ...contentJson(IgnoreRequest), required: true } },
  responses: ok(IgnoreResponse),
  handle: async (c, { params, body }) =>
    (await setIgnored(serviceCtx(c), { txId: params.tx_id, ignored: body.ignored })).response,
});

export const MarkTransactionReviewed = route(TransactionsRoute, {
  operationId: "markTransactionReviewed",
  summary: "Review-only mark: the category stays, the audit records the review",
  request: { params: TxIdParams },
  responses: ok(ReviewResponse),
  handle: async (c, { params }) => (await markReviewed(serviceCtx(c), params.tx_id)).response,
});

export const PermanentlyDeleteTransaction = route(TransactionsRoute, {
  operationId: "permanentlyDeleteTransaction",
  summary: "Delete a trashed transaction for good (409 unless it is in the trash)",
  request: { params: TxIdParams },
  responses: ok(PermanentDeleteResponse),
  handle: async (c, { params }) => permanentlyDelete(serviceCtx(c), params.tx_id),
});
