import { serviceCtx } from "../../../http/context";
import { route } from "../../../http/route";
import { ErrorEnvelope } from "../../../http/errors";
import { AttachmentListResponse } from "../../attachments/schemas";
import { listForTx } from "../../attachments/service";
import { TxIdParams } from "../schemas";
import { json, TransactionsRoute } from "./base";

export const ListTransactionAttachments = route(TransactionsRoute, {
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
  handle: async (c, { params }) => listForTx(serviceCtx(c), params.tx_id),
});
