import { errors, route } from "../../../http/route";
import { servedFileHeaders } from "../../../lib/served-file";
import { FAMILIES } from "../filetype";
import { AttachmentIdParam } from "../schemas";
import { file } from "../service";
import { AttachmentsRoute } from "./base";

export const DownloadAttachmentFile = route(AttachmentsRoute, {
  operationId: "downloadAttachmentFile",
  summary: "Download the attachment file: images and PDFs inline, typed by their own bytes",
  description:
    "The content type is derived from the stored bytes (JPEG, PNG, WebP or PDF are served inline; " +
    "anything else as an `application/octet-stream` download), never from a stored string. Every " +
    "response carries `Content-Security-Policy: sandbox; default-src 'none'; frame-ancestors 'none'` and " +
    "`X-Content-Type-Options: nosniff`; the filename reaches Content-Disposition only escaped " +
    "(an ASCII fallback and the RFC 5987 UTF-8 form).",
  request: { params: AttachmentIdParam },
  responses: {
    "200": {
      description: "The file",
      // Every content type we serve: the file-type table's, typed by the bytes (never the client's),
      // and application/octet-stream for anything else.
      content: Object.fromEntries(
        [...new Set([...Object.values(FAMILIES).map((f) => f.contentType), "application/octet-stream"])].map(
          (t) => [t, { schema: { type: "string" as const, format: "binary" } }],
        ),
      ),
    },
    ...errors({ "404": "No such attachment (or its file is gone)" }),
  },
  handle: async (ctx, { params }) => {
    const { row, bytes, contentType } = await file(ctx, params.attachment_id);
    return new Response(bytes, {
      headers: servedFileHeaders({
        contentType,
        filename: row.original_filename,
        size: bytes.byteLength,
        cacheControl: "private, max-age=3600",
      }),
    });
  },
});
