/**
 * `POST /statements/import` without `statement_id` (the reference allows it): the request's own
 * `metadata` and `transactions` become a statement, reconciled exactly like an upload (synthetic
 * keys stored, tiers against the stored rows), with no file behind it. Amounts arrive as SPEC's
 * decimals and become cents here.
 */
import { getDb } from "../../db";
import type { StatementRecord } from "../../db/schema";
import { sha256Hex } from "../../ingest/hash";
import type { ServiceCtx } from "../../lib/context";
import { validationError } from "../../lib/errors";
import { toCents, absCents } from "../../lib/money";
import type { ParsedStatement } from "./parsers";
import { unchecked } from "./parsers/balance";
import { parsedColumns } from "./parse";
import * as q from "./queries";
import { buildRows } from "./reconcile";
import { newId } from "./rules";
import type { ImportRequest } from "./schemas";

const missing = (field: string) =>
  validationError(
    [{ loc: ["body", field], msg: `Field required when statement_id is absent`, type: "missing" }],
    `Without statement_id the request must carry ${field} (the rows as an upload returned them)`,
  );

/**
 * Makes the statement the request describes: its id and its inserts, which the import runs first
 * in its read batch (so the statement exists iff that batch ran).
 */
export async function statementFromBody(ctx: ServiceCtx, req: ImportRequest) {
  if (!req.metadata) throw missing("metadata");
  if (!req.transactions) throw missing("transactions");
  const m = req.metadata;
  const kind = /\.(csv|ofx|qfx|qif|xml)$/i.exec(req.filename ?? "")?.[1]?.toLowerCase() ?? "pdf";
  const parsed: ParsedStatement = {
    institution: m.institution,
    account_type: m.account_type,
    period_start: m.period_start,
    period_end: m.period_end,
    parsed_with_ai: m.parsed_with_ai,
    rows: req.transactions.map((t) => ({
      date: t.date,
      description: t.description,
      amount: absCents(toCents(t.amount)),
      type: t.type,
      balance: t.balance === null ? null : toCents(t.balance),
    })),
    balance: unchecked(["Imported from rows sent without a file"]),
  };
  const id = newId();
  const now = ctx.clock().toISOString();
  const rows = await buildRows(ctx, { statementId: id, parsed, fileKind: kind });
  const stmt: StatementRecord = {
    id,
    filename: (req.filename ?? "statement").slice(0, 200),
    file_kind: kind,
    file_sha256: await sha256Hex(JSON.stringify(req.transactions)),
    // No file: a key of its own that no object holds (download answers 404 in words).
    r2_key: `statements/none/${id}`,
    ...parsedColumns({ ...parsed, csvState: null }),
    status: "pending_review",
    uploaded_at: now,
    updated_at: now,
    completed_at: null,
  };
  return { id, inserts: q.insertStatementQueries(getDb(ctx.env.DB), stmt, rows) };
}
