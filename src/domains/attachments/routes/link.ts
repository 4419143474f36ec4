import { errors, json, route } from "../../../http/route";
import { AttachmentIdParam, AttachmentResponse, LinkAttachmentRequest } from "../schemas";
import { link, toResponse } from "../service";
import { AttachmentsRoute } from "./base";

export const LinkAttachment = route(AttachmentsRoute, {
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
  handle: async (ctx, { params, body }) => {
    const after = await link(ctx, { id: params.attachment_id, txId: body.tx_id });
    return toResponse(after);
  },
});
