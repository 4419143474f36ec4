import { serviceCtx } from "../../../http/context";
import { route } from "../../../http/route";
import { AttachmentListResponse, ListAttachmentsQuery } from "../schemas";
import { list } from "../service";
import { AttachmentsRoute, json } from "./base";

export const ListAttachments = route(AttachmentsRoute, {
  operationId: "listAttachments",
  summary: "List attachments, optionally filtered by link status and kind",
  request: { query: ListAttachmentsQuery },
  responses: { "200": json("Attachments, newest first", AttachmentListResponse) },
  handle: async (c, { query }) => list(serviceCtx(c), { unlinked: query.unlinked, kind: query.kind }),
});
