import { type AppContext, serviceCtx } from "../../../http/context";
import { AttachmentListResponse, ListAttachmentsQuery } from "../schemas";
import { list } from "../service";
import { AttachmentsRoute, json } from "./base";

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
