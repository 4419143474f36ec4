import { json, ok, route } from "../../../http/route";
import { ErrorEnvelope } from "../../../http/errors";
import { AttachmentListResponse } from "../../attachments/schemas";
import { listForTx } from "../../attachments/service";
import { TxIdParams } from "../schemas";
import { TransactionsRoute } from "./base";

export const ListTransactionAttachments = route(TransactionsRoute, {
  operationId: "listTransactionAttachments",
  summary: "List attachments linked to a transaction",
  request: { params: TxIdParams },
  responses: {
    ...ok(AttachmentListResponse, "The transaction's attachments, oldest first"),
    "404": json("Not a transaction id", ErrorEnvelope),
  },
  handle: async (ctx, { params }) => listForTx(ctx, params.tx_id),
});
