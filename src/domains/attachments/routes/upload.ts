import { type AppContext, serviceCtx } from "../../../http/context";
import { errors, json } from "../../../http/route";
import { readUpload } from "../../../http/upload";
import { ATTACHMENT_LIMITS, checkUpload } from "../files";
import { AttachmentResponse, BodyUploadAttachment } from "../schemas";
import { upload } from "../service";
import { AttachmentsRoute } from "./base";

export class UploadAttachment extends AttachmentsRoute {
  override schema = {
    operationId: "uploadAttachment",
    summary: "Upload a receipt or document, optionally linked to a transaction",
    description:
      "Store an uploaded receipt/document; link it immediately when `tx_id` is given. JPEG, PNG, WebP, " +
      "HEIC/HEIF or PDF up to 10 MB; the extension, the declared type and the file's own bytes must agree " +
      "(415 otherwise). The same file under the same name upserts (same id). HEIC/HEIF is stored as a JPEG " +
      "(long edge at most 2048 px); a server without the Images binding converts photos up to 5 megapixels " +
      "(413 above, in words; the dashboard converts in the browser first), and a damaged HEIC is a 422.",
    request: {
      body: { content: { "multipart/form-data": { schema: BodyUploadAttachment } }, required: true },
    },
    responses: {
      "200": json("The stored attachment", AttachmentResponse),
      ...errors({
        "404": "tx_id names no transaction",
        "413": "Larger than 10 MB, or a HEIC photo with more pixels than this server converts",
        "415": "Not an accepted type",
      }),
    },
  };

  override async handle(c: AppContext) {
    const ctx = serviceCtx(c);
    const file = await readUpload(c.req.raw, ATTACHMENT_LIMITS);
    const checked = checkUpload({ ...file, kind: file.field("kind"), txId: file.field("tx_id") });
    const after = await upload(ctx, checked);
    return c.json(after);
  }
}
