import { type AppContext, serviceCtx } from "../../../http/context";
import { StatementIdParams } from "../schemas";
import { downloadStatement } from "../service";
import { NOT_FOUND, StatementsRoute } from "./base";

export class DownloadStatement extends StatementsRoute {
  override schema = {
    operationId: "downloadStatementPdf",
    summary: "The stored statement file as uploaded",
    request: { params: StatementIdParams },
    responses: {
      "200": {
        description: "Original statement file",
        content: { "application/pdf": { schema: { type: "string" as const, format: "binary" } } },
      },
      ...NOT_FOUND,
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const file = await downloadStatement(serviceCtx(c), params.statement_id);
    return new Response(file.body, {
      headers: {
        "content-type": file.contentType,
        // Our own name (the statement id), never the uploaded file name.
        "content-disposition": `attachment; filename="${file.filename}"`,
        "cache-control": "private, no-store",
      },
    });
  }
}
