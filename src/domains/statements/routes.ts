import { domainRoute, errors, json, route } from "../../http/route";
import { contentJson } from "chanfana";
import {
  BulkTransactionUpdate,
  BulkTransactionUpdateResponse,
  StatementIdParams,
  CsvMappingRequest,
  StatementDetailResponse,
  StatementDeleteResponse,
  ImportRequest,
  ImportResponse,
  StatementListResponse,
  RowParams,
  TransactionActionUpdate,
  TransactionActionUpdateResponse,
  BodyUploadStatement,
  StatementUploadResponse,
} from "./schemas";
import {
  applyEdits,
  confirmCsvMapping,
  deleteStatement,
  downloadStatement,
  getStatementDetail,
  loadStatement,
  listStatements,
  reparseStatement,
  uploadStatement,
} from "./service";
import { servedFileHeaders } from "../../lib/served-file";
import { CONTENT_TYPES, STATEMENT_LIMITS, statementFilename } from "./files";
import { executeImport } from "./import";
import { statementFromBody } from "./import-body";
import { proposeLayout } from "./layouts/proposal";
import {
  LayoutProposalResponse,
  PageTextResponse,
  StatementLayout,
  TeachLayoutRequest,
  LayoutIdParams,
  RenameLayoutRequest,
  StatementLayoutList,
} from "./layouts/schemas";
import { z } from "zod";
import { ErrorEnvelope } from "../../http/errors";
import { pageText, deleteLayout, layoutItem, listLayoutItems, renameLayout } from "./layouts/service";
import { teachStatementLayout } from "./teach";
import { type AppContext, serviceCtx } from "../../http/context";
import { readUpload } from "../../http/upload";

export const StatementsRoute = domainRoute("statements");

export const NOT_FOUND = errors({ "404": "No statement (or row) with this id" });
export const CONFLICT = errors({ "409": "The row was already settled by an import" });

export const BulkUpdateStatementRows = route(StatementsRoute, {
  operationId: "bulkUpdateStatementTransactions",
  summary: "Set the action, company and category of many rows at once (all or none)",
  request: { params: StatementIdParams, body: { ...contentJson(BulkTransactionUpdate), required: true } },
  responses: { "200": json("Updated", BulkTransactionUpdateResponse), ...NOT_FOUND, ...CONFLICT },
  handle: async (ctx, { params, body }) => {
    const edits = body.updates.map(({ tx_index, ...edit }) => ({ key: tx_index, edit }));
    const res = await applyEdits(ctx, {
      id: params.statement_id,
      edits,
      summary: (rows) => `${rows.length} statement rows edited`,
    });
    return { ok: true, updated: res.rows.length };
  },
});

export const ConfirmCsvMapping = route(StatementsRoute, {
  operationId: "confirmStatementCsvMapping",
  summary: "Confirm a CSV statement's column mapping (remembered for this header layout) and read it again",
  request: { params: StatementIdParams, body: { ...contentJson(CsvMappingRequest), required: true } },
  responses: {
    "200": json("The statement read with the mapping", StatementDetailResponse),
    ...NOT_FOUND,
    ...CONFLICT,
  },
  handle: async (ctx, { params, body }) => confirmCsvMapping(ctx, { id: params.statement_id, body }),
});

export const DeleteStatement = route(StatementsRoute, {
  operationId: "deleteStatement",
  summary: "Remove a statement and its review rows (imported transactions stay)",
  request: { params: StatementIdParams },
  responses: { "200": json("Deleted", StatementDeleteResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => {
    const res = await deleteStatement(ctx, params.statement_id);
    return { ok: res.ok };
  },
});

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

export const GetStatement = route(StatementsRoute, {
  operationId: "getStatement",
  summary: "One statement with every row, its tier, action and edits",
  request: { params: StatementIdParams },
  responses: { "200": json("The statement", StatementDetailResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => getStatementDetail(ctx, params.statement_id),
});

export const ImportStatementRows = route(StatementsRoute, {
  operationId: "importStatementTransactions",
  summary: "Execute a reviewed statement: import new rows, enrich or update matched ones, settle the rest",
  description:
    "One activity-ledger entry per call, written in the import's own batch; reverting it removes the rows it created and restores the ones it changed. " +
    "All or nothing: the rows and the statement's state are written in one batch. Without `statement_id`, " +
    "`metadata` and `transactions` make the statement first.",
  request: { body: { ...contentJson(ImportRequest), required: true } },
  responses: { "200": json("What the import did", ImportResponse), ...NOT_FOUND, ...CONFLICT },
  handle: async (ctx, { body }) => {
    // Without statement_id the request's rows make the statement, inserted in the import's read.
    const made = body.statement_id ? null : await statementFromBody(ctx, body);
    const statement_id = body.statement_id ?? made!.id;
    const res = await executeImport(ctx, { ...body, statement_id, inserts: made?.inserts });
    return res.response;
  },
});

export const ProposeLayout = route(StatementsRoute, {
  operationId: "proposeStatementLayout",
  summary: "The document-parsing model's proposal of a PDF's column marks, judged by the balance check",
  description:
    "Only when document parsing has a provider (otherwise nothing is sent and `asked` is false). The first " +
    "page or two of laid-out lines go to the model; the marks it proposes are read like a person's and kept " +
    "only when the rows add up to the printed opening and closing balances. Nothing is saved: the person " +
    "confirms the marks with PUT /statements/{statement_id}/layout.",
  request: { params: StatementIdParams },
  responses: {
    "200": json("A balanced proposal, or why there is none", LayoutProposalResponse),
    ...NOT_FOUND,
  },
  handle: async (ctx, { params }) => {
    const { stmt } = await loadStatement(ctx, params.statement_id);
    return await proposeLayout(ctx, stmt);
  },
});

export const GetPageText = route(StatementsRoute, {
  operationId: "getStatementPageText",
  summary: "A PDF statement's first pages as laid out, for marking its columns",
  request: { params: StatementIdParams },
  responses: { "200": json("Lines with positioned text", PageTextResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => {
    const { stmt } = await loadStatement(ctx, params.statement_id);
    return await pageText(ctx, stmt);
  },
});

export const TeachLayout = route(StatementsRoute, {
  operationId: "teachStatementLayout",
  summary:
    "Mark a PDF's columns once: the rows are read and balance-checked, the layout is kept for its bank",
  description:
    "The layout is saved under the fingerprint of the page's header (its words and positions); the next " +
    "statement with that header reads with no help. The statement is read again with it.",
  request: { params: StatementIdParams, body: { ...contentJson(TeachLayoutRequest), required: true } },
  responses: {
    "200": json(
      "The layout and the statement read with it",
      z
        .object({ layout: StatementLayout, statement: StatementDetailResponse })
        .meta({ id: "TeachLayoutResponse" }),
    ),
    "422": json("The marks read no rows, or no header stands above them", ErrorEnvelope),
    ...NOT_FOUND,
  },
  handle: async (ctx, { params, body }) => teachStatementLayout(ctx, { id: params.statement_id, body }),
});

const LAYOUT_NOT_FOUND = { "404": json("No layout with this id", z.object({ error: z.string() })) };

export const ListLayouts = route(StatementsRoute, {
  operationId: "listStatementLayouts",
  summary: "PDF statement layouts taught by marking columns (Rules → Banks I taught)",
  responses: { "200": json("Taught layouts", StatementLayoutList) },
  handle: async (ctx) => listLayoutItems(ctx),
});

export const RenameLayout = route(StatementsRoute, {
  operationId: "renameStatementLayout",
  summary: "Rename a taught statement layout (undoable)",
  request: { params: LayoutIdParams, body: { ...contentJson(RenameLayoutRequest), required: true } },
  responses: { "200": json("The layout", StatementLayout), ...LAYOUT_NOT_FOUND },
  handle: async (ctx, { params, body }) => {
    const res = await renameLayout(ctx, { id: params.layout_id, name: body.name });
    return layoutItem(res.after);
  },
});

export const DeleteLayout = route(StatementsRoute, {
  operationId: "deleteStatementLayout",
  summary: "Forget a taught statement layout (undoable)",
  request: { params: LayoutIdParams },
  responses: { "200": json("Deleted", z.object({ ok: z.boolean() })), ...LAYOUT_NOT_FOUND },
  handle: async (ctx, { params }) => {
    await deleteLayout(ctx, params.layout_id);
    return { ok: true };
  },
});

export const ListStatements = route(StatementsRoute, {
  operationId: "listStatements",
  summary: "Uploaded statements, newest first, with status and counts",
  responses: { "200": json("Statements", StatementListResponse) },
  handle: async (ctx) => listStatements(ctx),
});

export const ReparseStatement = route(StatementsRoute, {
  operationId: "reparseStatement",
  summary: "Parse the stored file again and reconcile anew, keeping the person's edits and results",
  request: { params: StatementIdParams },
  responses: { "200": json("The statement after reparse", StatementDetailResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => reparseStatement(ctx, params.statement_id),
});

export const UpdateStatementRow = route(StatementsRoute, {
  operationId: "updateStatementTransactionAction",
  summary: "Set one row's action, company and category (the statement moves to in_progress)",
  request: { params: RowParams, body: { ...contentJson(TransactionActionUpdate), required: true } },
  responses: { "200": json("Updated", TransactionActionUpdateResponse), ...NOT_FOUND, ...CONFLICT },
  handle: async (ctx, { params, body }) => {
    const edits = [{ key: params.tx_index, edit: body }];
    const res = await applyEdits(ctx, {
      id: params.statement_id,
      edits,
      summary: ([r]) => `statement row ${r!.tx_index}: ${r!.action}`,
    });
    const row = res.rows[0];
    return { ok: true, tx_index: row!.tx_index, row_id: row!.row_id, action: row!.action };
  },
});

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
