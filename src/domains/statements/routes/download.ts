import { type AppContext, serviceCtx } from "../../../http/context";
import { servedFileHeaders } from "../../../lib/served-file";
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
        // Always a download, sandboxed and not sniffed (src/lib/served-file.ts).
        ...servedFileHeaders({
          contentType: file.contentType ?? "application/octet-stream",
          filename: file.filename,
          download: true,
          cacheControl: "private, no-store",
        }),
        // Our own name (the statement id), never the uploaded file name.
        "Content-Disposition": `attachment; filename="${file.filename}"`,
      },
    });
  }
}
