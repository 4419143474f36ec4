/**
 * Executing a reviewed statement: `import` rows become transactions with SPEC.md's synthetic keys,
 * `enrich` fills the matched row's company and category (never over a manual category, never
 * Miscellaneous over a real one), `update` applies the person's company and category to it,
 * `skip` settles the row. One call is one activity-ledger entry: its images cover every
 * transaction it created or changed and the rows it settled, so the whole import can be undone.
 *
 * New rows go through the one commit path (ingest/commit.ts) with the category the review chose,
 * source `statement_import`, no notification, and the synthetic key's hash as their identity.
 */
import { inArray } from "drizzle-orm";
import { categoryAudit } from "../../categorize";
import { type Db, getDb, schema } from "../../db";
import type { StatementRecord, StatementRowRecord } from "../../db/schema";
import { getConfig } from "../config/service";
import { type CommitDeps, commitTransaction, type Draft } from "../../ingest/commit";
import { sha256Hex } from "../../ingest/hash";
import type { ServiceCtx } from "../../lib/context";
import { notFound } from "../../lib/errors";
import * as q from "./queries";
import { fileExtension, syntheticKey } from "./reconcile";
import { isManualCategory, isMisc, statementDate, statementStatus } from "./rules";
import type { ImportRequest, ImportResponse } from "./schemas";
import { editPatch } from "./service";
import { STATEMENT_RECIPIENT } from "./views";

type TxImage = {
  Amount: number | null;
  Company: string | null;
  Category: string | null;
  CategoryAudit: string | null;
  StatementSource: string | null;
};
/** The ledger image of a statement: its status, its rows' results, the transactions they touched. */
export interface ImportImage {
  status: string;
  completed_at: string | null;
  rows: Record<string, { action: string; action_result: string | null; acted_at: string | null }>;
  /** `ForwardedTo\nDateFileName` → the row's fields (null: the row does not exist). */
  transactions: Record<string, TxImage | null>;
}

const t = schema.transactions;
const keyOf = (fwd: string, dfn: string) => `${fwd}\n${dfn}`;
const statementSource = (s: StatementRecord) =>
  `${s.institution} ${s.account_type} ${s.period_start ?? "?"}..${s.period_end ?? "?"} (${s.id})`;

/**
 * The draft of an imported row (SPEC.md's synthetic keys; email-only fields empty). Its hash is
 * the synthetic key's, so two identical lines on one day stay two transactions.
 */
async function statementDraft(
  stmt: StatementRecord,
  r: StatementRowRecord,
  dfn: string,
  userId: string,
  source: string,
): Promise<Draft> {
  return {
    ForwardedTo: STATEMENT_RECIPIENT,
    DateFileName: dfn,
    TransactionHash: await sha256Hex(`statement|${dfn}`),
    UserId: userId,
    Institution: stmt.institution,
    Amount: r.amount,
    Company: r.edited_company ?? r.cleaned_description,
    TransactionType: r.type,
    Name: null,
    Date: statementDate(r.date),
    FileName: "",
    FromName: "",
    FromEmail: "",
    ToName: "",
    ToEmail: "",
    Subject: "",
    Body: "",
    StatementSource: source,
  };
}

/** The transaction fields an enrich or update writes, or null when it would change nothing. */
export function enrichPatch(
  row: StatementRowRecord,
  stored: TxImage,
  mode: "enrich" | "update",
  source: string,
  nowIso: string,
): Partial<TxImage> | null {
  const patch: Partial<TxImage> = {};
  const company =
    row.edited_company ?? (mode === "update" || !stored.Company?.trim() ? row.cleaned_description : null);
  if (company && company !== stored.Company) patch.Company = company;
  const prevSource = stored.CategoryAudit
    ? ((JSON.parse(stored.CategoryAudit) as { source?: string | null }).source ?? null)
    : null;
  const wanted = (row.edited_category ?? row.suggested_category).toLowerCase();
  const manual = isManualCategory(prevSource) && mode === "enrich";
  const downgrade = isMisc(wanted) && !isMisc(stored.Category);
  if (!manual && !downgrade && wanted !== (stored.Category ?? "").toLowerCase()) {
    patch.Category = wanted;
    patch.CategoryAudit = JSON.stringify(
      categoryAudit({
        source: "statement_enrich",
        confidence: row.edited_category ? 1 : null,
        reviewed_at: row.edited_category ? nowIso : null,
        previous_category: stored.Category,
        previous_source: prevSource,
      }),
    );
  }
  if (!stored.StatementSource) patch.StatementSource = source;
  return Object.keys(patch).length ? patch : null;
}

async function readImages(db: Db, keys: string[]): Promise<Map<string, TxImage>> {
  const out = new Map<string, TxImage>();
  const dfns = [...new Set(keys.map((k) => k.split("\n")[1]!))];
  for (let i = 0; i < dfns.length; i += 90) {
    const rows = await db
      .select({ fwd: t.ForwardedTo, dfn: t.DateFileName, ...q.txImageColumns })
      .from(t)
      .where(inArray(t.DateFileName, dfns.slice(i, i + 90)))
      .all();
    for (const { fwd, dfn, ...img } of rows) out.set(keyOf(fwd, dfn), img);
  }
  return out;
}

/** The key of the transaction a settled row touched (its import or its matched row). */
async function touchedKey(stmt: StatementRecord, r: StatementRowRecord): Promise<string | null> {
  if (r.action_result === "imported") {
    return keyOf(
      STATEMENT_RECIPIENT,
      await syntheticKey(
        stmt.institution,
        fileExtension(stmt.file_kind),
        { ...r, description: r.raw_description },
        r.occurrence,
      ),
    );
  }
  if (
    (r.action_result === "enriched" || r.action_result === "updated") &&
    r.db_forwarded_to &&
    r.db_date_file_name
  ) {
    return keyOf(r.db_forwarded_to, r.db_date_file_name);
  }
  return null;
}

/** The current image of a statement (the reverter's stale guard compares it with an entry's `after`). */
export async function currentImage(
  ctx: ServiceCtx,
  id: string,
  keys?: string[],
): Promise<ImportImage | null> {
  const db = getDb(ctx.env.DB);
  const stmt = await q.getStatement(db, id);
  if (!stmt) return null;
  const rows = await q.rowsOf(db, id);
  const touched =
    keys ?? (await Promise.all(rows.map((r) => touchedKey(stmt, r)))).filter((k): k is string => k !== null);
  const images = await readImages(db, touched);
  return {
    status: stmt.status,
    completed_at: stmt.completed_at,
    rows: Object.fromEntries(
      rows.map((r) => [
        String(r.tx_index),
        { action: r.action, action_result: r.action_result, acted_at: r.acted_at },
      ]),
    ),
    transactions: Object.fromEntries(touched.map((k) => [k, images.get(k) ?? null])),
  };
}

export async function executeImport(ctx: ServiceCtx, req: ImportRequest) {
  const db = getDb(ctx.env.DB);
  const stmt = await q.getStatement(db, req.statement_id);
  if (!stmt) throw notFound("Statement");
  const rows = await q.rowsOf(db, stmt.id);
  for (const a of req.actions) {
    const row = rows.find((r) => r.tx_index === a.index);
    if (!row) throw notFound(`Statement transaction ${a.index}`);
    if (row.action_result !== null) continue;
    // A candidate the person picked for an ambiguous row becomes its match.
    const pick = a.date_file_name
      ? JSON.parse(row.candidates ?? "[]").find(
          (c: { date_file_name: string; forwarded_to: string }) =>
            c.date_file_name === a.date_file_name && (!a.forwarded_to || c.forwarded_to === a.forwarded_to),
        )
      : null;
    if (pick)
      Object.assign(row, {
        db_forwarded_to: pick.forwarded_to,
        db_date_file_name: pick.date_file_name,
        db_company: pick.company,
        db_category: pick.category,
        db_amount: pick.amount,
      });
    Object.assign(row, editPatch(row, { action: a.action, company: a.company, category: a.category }));
  }
  const before: ImportImage = (await currentImage(ctx, stmt.id, []))!;
  const now = ctx.clock().toISOString();
  const config = await getConfig({ ctx });
  const source = statementSource(stmt);
  const pending = rows.filter((r) => r.action_result === null);
  const newKeys = new Map<StatementRowRecord, string>();
  for (const r of pending.filter((x) => x.action === "import")) {
    newKeys.set(
      r,
      await syntheticKey(
        stmt.institution,
        fileExtension(stmt.file_kind),
        { ...r, description: r.raw_description },
        r.occurrence,
      ),
    );
  }
  const matchKeys = pending
    .filter((r) => (r.action === "enrich" || r.action === "update") && r.db_date_file_name)
    .map((r) => keyOf(r.db_forwarded_to!, r.db_date_file_name!));
  const existing = await readImages(db, [
    ...[...newKeys.values()].map((d) => keyOf(STATEMENT_RECIPIENT, d)),
    ...matchKeys,
  ]);
  const writes: Parameters<typeof db.batch>[0][number][] = [];
  const counts = { imported: 0, skipped: 0, duplicates: 0, enriched: 0, updated: 0 };
  const deps: CommitDeps = {
    db: ctx.env.DB,
    clock: ctx.clock,
    ai: null,
    settings: { aiCategorizationEnabled: false, blockedCompanies: [] },
  };
  const touched: string[] = [];
  for (const r of pending) {
    let result: string;
    if (r.action === "import") {
      const dfn = newKeys.get(r)!;
      if (existing.has(keyOf(STATEMENT_RECIPIENT, dfn))) result = "duplicate";
      else {
        const out = await commitTransaction(
          deps,
          await statementDraft(stmt, r, dfn, config.user_id, source),
          {
            category: {
              by: "given",
              category: r.edited_category ?? r.suggested_category,
              source: "statement_import",
              reviewed: r.edited_category !== null,
            },
            notify: false,
            // A statement row is history: the month-to-date context belongs to the moment an alert arrived.
            context: false,
          },
        );
        result = out.status === "created" ? "imported" : out.status === "duplicate" ? "duplicate" : "invalid";
        if (out.status === "created") touched.push(keyOf(STATEMENT_RECIPIENT, out.tx.DateFileName));
      }
    } else if ((r.action === "enrich" || r.action === "update") && r.db_date_file_name) {
      const key = keyOf(r.db_forwarded_to!, r.db_date_file_name);
      const stored = existing.get(key);
      if (!stored) result = "skipped";
      else {
        result = r.action === "enrich" ? "enriched" : "updated";
        touched.push(key);
        const patch = enrichPatch(r, stored, r.action, source, now);
        if (patch)
          writes.push(db.update(t).set(patch).where(q.txKeyWhere(r.db_forwarded_to!, r.db_date_file_name)));
      }
    } else result = "skipped";
    counts[
      result === "imported"
        ? "imported"
        : result === "duplicate"
          ? "duplicates"
          : result === "enriched"
            ? "enriched"
            : result === "updated"
              ? "updated"
              : "skipped"
    ]++;
    r.action_result = result;
    r.acted_at = now;
  }
  const status = statementStatus(rows);
  const completed = status === "complete" ? now : null;
  writes.push(q.setStatementQuery(db, stmt.id, { status, completed_at: completed, updated_at: now }));
  for (const r of rows) {
    writes.push(
      q.updateRowQuery(db, stmt.id, r.tx_index, {
        action: r.action,
        edited: r.edited,
        edited_company: r.edited_company,
        edited_category: r.edited_category,
        action_result: r.action_result,
        acted_at: r.acted_at,
        db_forwarded_to: r.db_forwarded_to,
        db_date_file_name: r.db_date_file_name,
        db_company: r.db_company,
        db_category: r.db_category,
        db_amount: r.db_amount,
      }),
    );
  }
  await db.batch(writes as [(typeof writes)[number], ...typeof writes]);
  // The after image covers every transaction the statement's settled rows touched (earlier imports
  // too, so the reverter's current image has the same keys); the before image differs only where
  // this import wrote: absent for created rows, the old fields for changed ones.
  const after = (await currentImage(ctx, stmt.id))!;
  const mine = new Set(touched);
  before.transactions = Object.fromEntries(
    Object.entries(after.transactions).map(([k, v]) => [k, mine.has(k) ? (existing.get(k) ?? null) : v]),
  );
  const response: ImportResponse = { statement_id: stmt.id, status, ...counts };
  return { response, before, after, rows: touched.length };
}

/** Writes a ledger `before` image back: created transactions go, changed ones get their fields back. */
export async function restoreImage(ctx: ServiceCtx, id: string, before: ImportImage) {
  const db = getDb(ctx.env.DB);
  const writes: Parameters<typeof db.batch>[0][number][] = [];
  for (const [key, img] of Object.entries(before.transactions)) {
    const [fwd, dfn] = key.split("\n") as [string, string];
    if (img === null) writes.push(db.delete(t).where(q.txKeyWhere(fwd, dfn)));
    else
      writes.push(
        db
          .update(t)
          .set({
            Company: img.Company,
            Category: img.Category,
            CategoryAudit: img.CategoryAudit,
            StatementSource: img.StatementSource,
          })
          .where(q.txKeyWhere(fwd, dfn)),
      );
  }
  for (const [idx, r] of Object.entries(before.rows)) {
    writes.push(
      q.updateRowQuery(db, id, Number(idx), { action_result: r.action_result, acted_at: r.acted_at }),
    );
  }
  writes.push(
    q.setStatementQuery(db, id, {
      status: before.status,
      completed_at: before.completed_at,
      updated_at: ctx.clock().toISOString(),
    }),
  );
  await db.batch(writes as [(typeof writes)[number], ...typeof writes]);
}
