import { type AppContext, serviceCtx } from "../../../http/context";
import { ErrorEnvelope } from "../../../http/errors";
import { AttachmentListResponse } from "../../attachments/schemas";
import { listForTx } from "../../attachments/service";
import { TxIdParams } from "../schemas";
import { json, TransactionsRoute } from "./base";

export class ListTransactionAttachments extends TransactionsRoute {
  override schema = {
    operationId: "listTransactionAttachments",
    summary: "List attachments linked to a transaction",
    request: { params: TxIdParams },
    responses: {
      ...json(AttachmentListResponse, "The transaction's attachments, oldest first"),
      "404": {
        description: "Not a transaction id",
        content: { "application/json": { schema: ErrorEnvelope } },
      },
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listForTx(serviceCtx(c), params.tx_id));
  }
}
