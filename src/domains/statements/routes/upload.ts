import { type AppContext, serviceCtx } from "../../../http/context";
import { json } from "../../../http/route";
import { ErrorEnvelope } from "../../../http/errors";
import { readUpload } from "../../../http/upload";
import { STATEMENT_LIMITS, statementFilename } from "../files";
import { BodyUploadStatement, StatementUploadResponse } from "../schemas";
import { uploadStatement } from "../service";
import { StatementsRoute } from "./base";

export class UploadStatement extends StatementsRoute {
  override schema = {
    operationId: "uploadStatement",
    summary: "Upload a statement (PDF, CSV, OFX, QFX): parse, reconcile and keep it for review",
    description:
      "Rows come back sorted into previously imported, matched, ambiguous, suspected duplicates and new. " +
      "`balance_check` says whether the rows chain from the opening to the closing balance. A file that is " +
      "not a statement (or a scan) is a 422, an unknown type a 415, above 10 MB a 413; nothing is stored then.",
    request: {
      body: { content: { "multipart/form-data": { schema: BodyUploadStatement } }, required: true },
    },
    responses: {
      "200": json("The parsed and reconciled statement", StatementUploadResponse),
      "413": json("File larger than 10 MB", ErrorEnvelope),
      "415": json("Not a PDF, CSV, OFX or QFX file", ErrorEnvelope),
    },
  };

  override async handle(c: AppContext) {
    const file = await readUpload(c.req.raw, STATEMENT_LIMITS);
    const upload = { bytes: file.bytes, filename: statementFilename(file.name) };
    return c.json(await uploadStatement(serviceCtx(c), upload));
  }
}
