import { json, route } from "../../../http/route";
import { AttachmentListResponse, ListAttachmentsQuery } from "../schemas";
import { list } from "../service";
import { AttachmentsRoute } from "./base";

export const ListAttachments = route(AttachmentsRoute, {
  operationId: "listAttachments",
  summary: "List attachments, optionally filtered by link status and kind",
  request: { query: ListAttachmentsQuery },
  responses: { "200": json("Attachments, newest first", AttachmentListResponse) },
  handle: async (ctx, { query }) => list(ctx, { unlinked: query.unlinked, kind: query.kind }),
});
