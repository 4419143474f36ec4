import { type AppContext, serviceCtx } from "../../../http/context";
import { contentDisposition, FAMILIES } from "../filetype";
import { AttachmentIdParam } from "../schemas";
import { file } from "../service";
import { AttachmentsRoute, errors } from "./base";

export class DownloadAttachmentFile extends AttachmentsRoute {
  override schema = {
    operationId: "downloadAttachmentFile",
    summary: "Download the attachment file, served inline with our stored content-type",
    description:
      "Served inline under the stored content type with `X-Content-Type-Options: nosniff`; the filename " +
      "reaches Content-Disposition only escaped (an ASCII fallback and the RFC 5987 UTF-8 form).",
    request: { params: AttachmentIdParam },
    responses: {
      "200": {
        description: "The file",
        // Every content type we store and serve (from the file-type table, never the client's).
        content: Object.fromEntries(
          [...new Set(Object.values(FAMILIES).map((f) => f.contentType))].map((t) => [
            t,
            { schema: { type: "string" as const, format: "binary" } },
          ]),
        ),
      },
      ...errors({ "404": "No such attachment (or its file is gone)" }),
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const { row, body, size } = await file(serviceCtx(c), params.attachment_id);
    return new Response(body, {
      headers: {
        "Content-Type": row.content_type,
        "Content-Length": String(size),
        "Content-Disposition": contentDisposition(row.original_filename),
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, max-age=3600",
        // Images only: a CSP on a PDF response keeps some browsers' built-in viewers from rendering it.
        ...(row.content_type.startsWith("image/")
          ? { "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'" }
          : {}),
      },
    });
  }
}
