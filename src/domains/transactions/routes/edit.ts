import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
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
import { json, TransactionsRoute } from "./base";

export class PatchTransaction extends TransactionsRoute {
  override schema = {
    operationId: "patchTransaction",
    summary: "Correct the category, mark reviewed, or change state (active, ignored, trashed)",
    request: { params: TxIdParams, body: { ...contentJson(CategoryUpdateRequest), required: true } },
    responses: json(CategoryUpdateResponse),
  };
  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const res = await patchTransaction(serviceCtx(c), { txId: params.tx_id, input: body });
    return c.json(res.response);
  }
}

export class SetTransactionComment extends TransactionsRoute {
  override schema = {
    operationId: "setTransactionComment",
    summary: "Set or clear the note on a transaction",
    request: { params: TxIdParams, body: { ...contentJson(CommentRequest), required: true } },
    responses: json(CommentResponse),
  };
  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const res = await setComment(serviceCtx(c), { txId: params.tx_id, comment: body.comment });
    return c.json(res.response);
  }
}

export class UpdateTransactionFields extends TransactionsRoute {
  override schema = {
    operationId: "updateTransactionFields",
    summary: "Correct amount, company or type (parser mistakes)",
    request: { params: TxIdParams, body: { ...contentJson(TransactionFieldsUpdateRequest), required: true } },
    responses: json(TransactionFieldsUpdateResponse),
  };
  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const res = await updateFields(serviceCtx(c), { txId: params.tx_id, input: body });
    return c.json(res.response);
  }
}
