import { type AppContext, serviceCtx } from "../../../http/context";
import { AttachmentDeleteResponse, AttachmentIdParam } from "../schemas";
import { remove } from "../service";
import { AttachmentsRoute, errors, json } from "./base";

export class DeleteAttachment extends AttachmentsRoute {
  override schema = {
    operationId: "deleteAttachment",
    summary: "Delete an attachment and its file from disk",
    description: "The stored object goes too (unless the same bytes are still attached under another name).",
    request: { params: AttachmentIdParam },
    responses: {
      "200": json("Deleted", AttachmentDeleteResponse),
      ...errors({ "404": "No such attachment" }),
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const row = await remove(serviceCtx(c), params.attachment_id);
    return c.json({ id: row.id, status: "deleted" });
  }
}
