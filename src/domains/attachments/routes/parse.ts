import { errors, json, route } from "../../../http/route";
import { readReceipt } from "../reading";
import { AttachmentIdParam, AttachmentResponse } from "../schemas";
import { toResponse } from "../service";
import { AttachmentsRoute } from "./base";

export const ParseReceipt = route(AttachmentsRoute, {
  operationId: "parseReceipt",
  summary: "Parse a receipt attachment with the configured AI provider",
  description:
    "Synchronous. Requires the `ai_receipt_parsing_enabled` consent (422 VALIDATION_ERROR when off). " +
    "Sends the image (vision input), a PDF's text, or a scanned PDF to the model API. Fails closed: " +
    "merchant, date and total are required; a text PDF's total must be printed in it; line items that " +
    "miss the total by more than 0.05 are dropped. Failures persist `parse_status=failed` with the reason.",
  request: { params: AttachmentIdParam },
  responses: {
    "200": json("The parsed attachment (parse_json carries provenance)", AttachmentResponse),
    ...errors({
      "404": "No such attachment",
      "502": "The model API failed",
      "503": "No model API key configured",
      "504": "The model timed out",
    }),
  },
  handle: async (ctx, { params }) => {
    const { after } = await readReceipt(ctx, { id: params.attachment_id });
    return toResponse(after);
  },
});
