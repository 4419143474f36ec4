import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
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

export class SoftDeleteTransaction extends TransactionsRoute {
  override schema = {
    operationId: "softDeleteTransaction",
    summary: "Move to the trash (deleted: true) or restore (deleted: false)",
    request: { params: TxIdParams, body: { ...contentJson(DeleteRequest), required: true } },
    responses: json(DeleteResponse),
  };
  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const res = await softDelete(serviceCtx(c), { txId: params.tx_id, deleted: body.deleted });
    return c.json(res.response);
  }
}

export class SetTransactionIgnored extends TransactionsRoute {
  override schema = {
    operationId: "setTransactionIgnored",
    summary: "Exclude from (or return to) summaries and the journal",
    request: { params: TxIdParams, body: { ...contentJson(IgnoreRequest), required: true } },
    responses: json(IgnoreResponse),
  };
  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const res = await setIgnored(serviceCtx(c), { txId: params.tx_id, ignored: body.ignored });
    return c.json(res.response);
  }
}

export class MarkTransactionReviewed extends TransactionsRoute {
  override schema = {
    operationId: "markTransactionReviewed",
    summary: "Review-only mark: the category stays, the audit records the review",
    request: { params: TxIdParams },
    responses: json(ReviewResponse),
  };
  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const res = await markReviewed(serviceCtx(c), params.tx_id);
    return c.json(res.response);
  }
}

export class PermanentlyDeleteTransaction extends TransactionsRoute {
  override schema = {
    operationId: "permanentlyDeleteTransaction",
    summary: "Delete a trashed transaction for good (409 unless it is in the trash)",
    request: { params: TxIdParams },
    responses: json(PermanentDeleteResponse),
  };
  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const res = await permanentlyDelete(serviceCtx(c), params.tx_id);
    return c.json(res);
  }
}
