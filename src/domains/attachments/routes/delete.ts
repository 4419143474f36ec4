import { errors, json, route } from "../../../http/route";
import { AttachmentDeleteResponse, AttachmentIdParam } from "../schemas";
import { remove } from "../service";
import { AttachmentsRoute } from "./base";

export const DeleteAttachment = route(AttachmentsRoute, {
  operationId: "deleteAttachment",
  summary: "Delete an attachment and its file from disk",
  description: "The stored object goes too (unless the same bytes are still attached under another name).",
  request: { params: AttachmentIdParam },
  responses: {
    "200": json("Deleted", AttachmentDeleteResponse),
    ...errors({ "404": "No such attachment" }),
  },
  handle: async (ctx, { params }) => {
    const row = await remove(ctx, params.attachment_id);
    return { id: row.id, status: "deleted" };
  },
});
