import { type AppContext, serviceCtx } from "../../../http/context";
import { AttachmentListResponse, ListAttachmentsQuery, TxIdParam } from "../schemas";
import { list, listForTx } from "../service";
import { AttachmentsRoute, errors, json } from "./base";

export class ListAttachments extends AttachmentsRoute {
  override schema = {
    operationId: "listAttachments",
    summary: "List attachments, optionally filtered by link status and kind",
    request: { query: ListAttachmentsQuery },
    responses: { "200": json("Attachments, newest first", AttachmentListResponse) },
  };

  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await list(serviceCtx(c), { unlinked: query.unlinked, kind: query.kind }));
  }
}

export class ListTransactionAttachments extends AttachmentsRoute {
  override schema = {
    operationId: "listTransactionAttachments",
    summary: "List attachments linked to a transaction",
    request: { params: TxIdParam },
    responses: {
      "200": json("The transaction's attachments, oldest first", AttachmentListResponse),
      ...errors({ "404": "Not a transaction id" }),
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listForTx(serviceCtx(c), params.tx_id));
  }
}
