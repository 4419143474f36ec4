import { type AppContext, serviceCtx } from "../../../http/context";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute, json } from "../../../http/route";
import { BodyUploadEml, UploadEmlResponse } from "../upload-eml-schemas";
import { readUpload } from "../../../http/upload";
import { checkEml, EML_LIMITS, uploadEml } from "../upload-eml";

export const IngestionRoute = domainRoute("transactions");

export class UploadEml extends IngestionRoute {
  override schema = {
    operationId: "uploadEml",
    summary: "Ingest one raw email file through the alert pipeline",
    description:
      "Runs the same pipeline as every other door: the raw is stored, parsed, categorized and " +
      "written with duplicate detection; an unreadable alert is quarantined. At most 5 MB (413 above).",
    request: {
      body: { content: { "multipart/form-data": { schema: BodyUploadEml } }, required: true },
    },
    responses: {
      "200": json("What became of the email", UploadEmlResponse),
      "413": json("File larger than 5 MB", ErrorEnvelope),
    },
  };

  override async handle(c: AppContext) {
    const bytes = checkEml((await readUpload(c.req.raw, EML_LIMITS)).bytes);
    return c.json(await uploadEml(serviceCtx(c), { bytes }));
  }
}
