/**
 * Executing a reviewed statement as plan → one batch → journal: the person's actions are applied
 * to the rows, `planImport` (import-plan.ts, pure) decides every insert, patch and row result from
 * the synthetic keys stored at upload, and ONE `db.batch` writes all of it with the statement's
 * new status and the call's activity-ledger entry, so a failure midway leaves nothing imported
 * and nothing journaled. The entry's images (computed in memory from the plan) cover every
 * transaction it created or changed and the rows it settled, so the whole import can be undone.
 *
 * `import` rows become transactions (source `statement_import`, the review's category, no
 * notification, the synthetic key's hash as identity); `enrich` fills the matched row's company
 * and category (never over a manual category, never Miscellaneous over a real one); `update`
 * applies the person's company and category; `skip` settles the row.
 */
import { type Db, getDb } from "../../db";
import { batchOf, type Statement } from "../../db/lists";
import type { StatementRecord, StatementRowRecord } from "../../db/schema";
import { toRow } from "../../ingest/dedup";
import { sha256Hex } from "../../ingest/hash";
import { readCategoryAudit } from "../../ingest/stored";
import type { ServiceCtx } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { getConfig } from "../config/service";
import { insertRowStatement, patchRowStatement, removeRowStatement } from "../transactions/ingest-queries";
import { type ImportPlan, keyOf, planImport, type TxImage } from "./import-plan";
import * as q from "./queries";
import { syntheticKey } from "./reconcile";
import { statementStatus } from "./rules";
import type { ImportRequest, ImportResponse } from "./schemas";
import { readCandidates } from "./stored";
import { rowsImage } from "./review-image";
import type { StoredImportImage } from "./ledger-images";
import { editPatch } from "./service";
import { STATEMENT_RECIPIENT } from "./views";

/** The ledger image of a statement as written (its transactions' fields typed). */
type ImportImage = Omit<StoredImportImage, "transactions"> & { transactions: Record<string, TxImage | null> };

const statementSource = (s: StatementRecord) =>
  `${s.institution} ${s.account_type} ${s.period_start ?? "?"}..${s.period_end ?? "?"} (${s.id})`;

/** Each row's synthetic key: stored at upload; computed only for rows stored before keys were kept. */
async function rowKeys(
  stmt: StatementRecord,
  rows: StatementRowRecord[],
  stored: Map<number, string>,
): Promise<Map<number, string>> {
  const keys = new Map(stored);
  for (const r of rows) {
    if (keys.has(r.tx_index)) continue;
    const row = { ...r, description: r.raw_description };
    keys.set(r.tx_index, await syntheticKey(stmt.institution, stmt.file_kind, row, r.occurrence));
  }
  return keys;
}

type ImageRow = { fwd: string; dfn: string } & TxImage;

/** The transactions' images, all chunks in one round trip (none without keys). */
async function readImages(db: Db, keys: string[]): Promise<Map<string, TxImage>> {
  const reads = q.txImageQueries(
    db,
    keys.map((k) => k.split("\n")[1]!),
  );
  const out = new Map<string, TxImage>();
  if (reads.length === 0) return out;
  for (const rows of (await db.batch(reads as [(typeof reads)[number], ...typeof reads])) as ImageRow[][]) {
    for (const { fwd, dfn, ...img } of rows) out.set(keyOf(fwd, dfn), img);
  }
  return out;
}

/** The key of the transaction a settled row touched (its import or its matched row). */
function touchedKey(keys: Map<number, string>, r: StatementRowRecord): string | null {
  if (r.action_result === "imported") return keyOf(STATEMENT_RECIPIENT, keys.get(r.tx_index)!);
  if (
    (r.action_result === "enriched" || r.action_result === "updated") &&
    r.db_forwarded_to &&
    r.db_date_file_name
  ) {
    return keyOf(r.db_forwarded_to, r.db_date_file_name);
  }
  return null;
}

const touchedKeys = (keys: Map<number, string>, rows: StatementRowRecord[]) =>
  rows.map((r) => touchedKey(keys, r)).filter((k): k is string => k !== null);

/** A statement's image from its state, its rows and the images of the transactions it names. */
function imageOf(
  stmt: Pick<StatementRecord, "status" | "completed_at">,
  rows: StatementRowRecord[],
  touched: string[],
  images: Map<string, TxImage>,
): ImportImage {
  return {
    ...rowsImage(stmt, rows, ({ action, action_result, acted_at }) => ({ action, action_result, acted_at })),
    transactions: Object.fromEntries(touched.map((k) => [k, images.get(k) ?? null])),
  };
}

/** The current image of a statement (the reverter's stale guard compares it with an entry's `after`). */
export async function currentImage(ctx: ServiceCtx, id: string): Promise<ImportImage | null> {
  const db = getDb(ctx.env.DB);
  const read = await q.readStatementWithRows(db, id);
  if (!read.stmt) return null;
  const touched = touchedKeys(await rowKeys(read.stmt, read.rows, read.keys), read.rows);
  return imageOf(read.stmt, read.rows, touched, await readImages(db, touched));
}

/** Applies the request's actions to the rows (a picked candidate of an ambiguous row becomes its match). */
function applyActions(rows: StatementRowRecord[], actions: ImportRequest["actions"]) {
  for (const a of actions) {
    const row = rows.find((r) => r.tx_index === a.index);
    if (!row) throw notFound(`Statement transaction ${a.index}`);
    if (row.action_result !== null) continue;
    const pick = a.date_file_name
      ? readCandidates(row.candidates)?.find(
          (c) =>
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
}

/**
 * Reads the statement with its rows and keys, then the transactions the plan compares against and
 * the earlier imports', and writes the plan with the ledger entry in one batch.
 */
export async function executeImport(
  ctx: ServiceCtx,
  req: ImportRequest & { statement_id: string; inserts?: readonly Statement[] },
) {
  const db = getDb(ctx.env.DB);
  const read = await q.readStatementWithRows(db, req.statement_id, req.inserts);
  const stmt = read.stmt;
  if (!stmt) throw notFound("Statement");
  // The before image is the rows as stored, before the request's actions apply to them.
  const before = imageOf(stmt, structuredClone(read.rows), [], new Map());
  const rows = read.rows;
  applyActions(rows, req.actions);
  const now = ctx.clock().toISOString();
  const config = await getConfig(ctx);
  const keys = await rowKeys(stmt, rows, read.keys);
  const pending = rows.filter((r) => r.action_result === null);
  const newKeys = pending.filter((r) => r.action === "import").map((r) => keys.get(r.tx_index)!);
  const hashes = new Map(
    await Promise.all(newKeys.map(async (k) => [k, await sha256Hex(`statement|${k}`)] as const)),
  );
  const matchKeys = pending
    .filter((r) => (r.action === "enrich" || r.action === "update") && r.db_date_file_name)
    .map((r) => keyOf(r.db_forwarded_to!, r.db_date_file_name!));
  // Rows settled by earlier imports keep their transactions in the images (the reverter's current
  // image has the same keys); this import does not write them.
  const earlier = touchedKeys(keys, rows);
  const existing = await readImages(db, [
    ...newKeys.map((d) => keyOf(STATEMENT_RECIPIENT, d)),
    ...matchKeys,
    ...earlier,
  ]);
  const plan = planImport({
    stmt,
    pending,
    keys,
    hashes,
    existing,
    userId: config.user_id,
    source: statementSource(stmt),
    nowIso: now,
  });
  for (const r of pending) {
    r.action_result = plan.results.get(r.tx_index) ?? "skipped";
    r.acted_at = now;
  }
  const status = statementStatus(rows);
  const completed_at = status === "complete" ? now : null;
  const touched = touchedKeys(keys, rows);
  const after = imageOf({ status, completed_at }, rows, touched, afterImages(plan, existing, now));
  // The before image differs from the after image only where this import wrote: absent for created
  // rows, the old fields for changed ones.
  const mine = new Set(plan.touched);
  before.transactions = Object.fromEntries(
    Object.entries(after.transactions).map(([k, v]) => [k, mine.has(k) ? (existing.get(k) ?? null) : v]),
  );
  const writes = [
    q.setStatementQuery(db, stmt.id, { status, completed_at, updated_at: now }),
    ...plan.inserts.map((tx) => insertRowStatement(db, toRow(tx, now))),
    ...plan.patches.map((p) => patchRowStatement(db, { forwardedTo: p.fwd, dateFileName: p.dfn }, p.patch)),
    ...rows.map((r) =>
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
    ),
  ];
  const response: ImportResponse = { statement_id: stmt.id, status, ...plan.counts };
  ctx.journal({
    kind: "statement-import",
    resourceId: stmt.id,
    before,
    after,
    rows: plan.touched.length,
    summary: `statement import: ${response.imported} imported, ${response.enriched} enriched, ${response.updated} updated, ${response.skipped} skipped`,
  });
  // ONE batch: the new transactions, the patches, every row's result, the statement's status and
  // the ledger entry.
  await ctx.batch(batchOf(writes));
  return { response, before, after, rows: plan.touched.length };
}

/** The transactions' images once the plan is written: inserted records, patched fields, the rest as read. */
function afterImages(plan: ImportPlan, existing: Map<string, TxImage>, now: string): Map<string, TxImage> {
  const out = new Map(existing);
  for (const p of plan.patches) {
    const key = keyOf(p.fwd, p.dfn);
    out.set(key, { ...out.get(key)!, ...p.patch });
  }
  for (const tx of plan.inserts) {
    const r = toRow(tx, now);
    out.set(keyOf(r.ForwardedTo, r.DateFileName), {
      Amount: r.Amount ?? null,
      Company: r.Company ?? null,
      Category: r.Category ?? null,
      CategoryAudit: r.CategoryAudit ?? null,
      StatementSource: r.StatementSource ?? null,
    });
  }
  return out;
}

/** The writes that put a ledger `before` image back: created transactions go, changed ones get their fields back. */
function restoreWrites(db: Db, id: string, before: StoredImportImage, nowIso: string): Statement[] {
  const writes: Statement[] = [];
  for (const [key, img] of Object.entries(before.transactions)) {
    const [fwd, dfn] = key.split("\n") as [string, string];
    const txKey = { forwardedTo: fwd, dateFileName: dfn };
    if (img === null) writes.push(removeRowStatement(db, txKey));
    else
      writes.push(
        patchRowStatement(db, txKey, {
          Company: img.Company,
          Category: img.Category,
          CategoryAudit: readCategoryAudit(img.CategoryAudit),
          StatementSource: img.StatementSource,
        }),
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
      updated_at: nowIso,
    }),
  );
  return writes;
}

/** Writes a ledger `before` image back in one batch (`restoreWrites`). */
export async function restoreImage(
  ctx: ServiceCtx,
  { id, before }: { id: string; before: StoredImportImage },
) {
  const db = getDb(ctx.env.DB);
  await ctx.batch(batchOf(restoreWrites(db, id, before, ctx.clock().toISOString())));
}
