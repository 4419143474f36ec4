import { type AppContext, serviceCtx } from "../../../http/context";
import { AttachmentIdParam, AttachmentResponse, LinkAttachmentRequest } from "../schemas";
import { link, toResponse } from "../service";
import { AttachmentsRoute, errors, json } from "./base";

export class LinkAttachment extends AttachmentsRoute {
  override schema = {
    operationId: "linkAttachment",
    summary: "Link an attachment to a transaction, or unlink it",
    description: "Journaled and reversible (POST /activity/{id}/revert puts the previous link back).",
    request: {
      params: AttachmentIdParam,
      body: { content: { "application/json": { schema: LinkAttachmentRequest } }, required: true },
    },
    responses: {
      "200": json("The updated attachment", AttachmentResponse),
      ...errors({ "404": "No such attachment or transaction" }),
    },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const after = await link(serviceCtx(c), { id: params.attachment_id, txId: body.tx_id });
    return c.json(toResponse(after));
  }
}
