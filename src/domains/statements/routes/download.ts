import { route } from "../../../http/route";
import { servedFileHeaders } from "../../../lib/served-file";
import { CONTENT_TYPES } from "../files";
import { StatementIdParams } from "../schemas";
import { downloadStatement } from "../service";
import { NOT_FOUND, StatementsRoute } from "./base";

export const DownloadStatement = route(StatementsRoute, {
  operationId: "downloadStatementPdf",
  summary: "The stored statement file as uploaded",
  request: { params: StatementIdParams },
  responses: {
    "200": {
      description: "Original statement file (PDF, CSV, OFX, QFX, QIF, CAMT XML or MT940, as uploaded)",
      // Every type a stored statement is served as (its kind's, never the client's).
      content: Object.fromEntries(
        [...new Set([...Object.values(CONTENT_TYPES), "application/octet-stream"])].map((t) => [
          t.split(";")[0]!.trim(),
          { schema: { type: "string" as const, format: "binary" } },
        ]),
      ),
    },
    ...NOT_FOUND,
  },
  handle: async (ctx, { params }) => {
    const file = await downloadStatement(ctx, params.statement_id);
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
  },
});
