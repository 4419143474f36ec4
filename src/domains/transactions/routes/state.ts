import { contentJson } from "chanfana";
import { serviceCtx } from "../../../http/context";
import { route } from "../../../http/route";
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
import { json, TransactionsRoute } from "./base";

export const SoftDeleteTransaction = route(TransactionsRoute, {
  operationId: "softDeleteTransaction",
  summary: "Move to the trash (deleted: true) or restore (deleted: false)",
  request: { params: TxIdParams, body: { ...contentJson(DeleteRequest), required: true } },
  responses: json(DeleteResponse),
  handle: async (c, { params, body }) => {
    const res = await softDelete(serviceCtx(c), { txId: params.tx_id, deleted: body.deleted });
    return res.response;
  },
});

export const SetTransactionIgnored = route(TransactionsRoute, {
  operationId: "setTransactionIgnored",
  summary: "Exclude from (or return to) summaries and the journal",
  request: { params: TxIdParams, body: { ...contentJson(IgnoreRequest), required: true } },
  responses: json(IgnoreResponse),
  handle: async (c, { params, body }) => {
    const res = await setIgnored(serviceCtx(c), { txId: params.tx_id, ignored: body.ignored });
    return res.response;
  },
});

export const MarkTransactionReviewed = route(TransactionsRoute, {
  operationId: "markTransactionReviewed",
  summary: "Review-only mark: the category stays, the audit records the review",
  request: { params: TxIdParams },
  responses: json(ReviewResponse),
  handle: async (c, { params }) => {
    const res = await markReviewed(serviceCtx(c), params.tx_id);
    return res.response;
  },
});

export const PermanentlyDeleteTransaction = route(TransactionsRoute, {
  operationId: "permanentlyDeleteTransaction",
  summary: "Delete a trashed transaction for good (409 unless it is in the trash)",
  request: { params: TxIdParams },
  responses: json(PermanentDeleteResponse),
  handle: async (c, { params }) => {
    const res = await permanentlyDelete(serviceCtx(c), params.tx_id);
    return res;
  },
});
