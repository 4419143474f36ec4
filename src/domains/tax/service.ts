/** Tax pack verbs: the year's lines, the line picker, include/exclude overrides and their revert. */
import { getDb, namedBatch } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { notFound, validationError } from "../../lib/errors";
import { fromCents, ZERO_CENTS, sumCents } from "../../lib/money";
import { decodeTxId, encodeTxId } from "../../lib/txid";
import { isSpendingType } from "../../lib/transaction-types";
import { OTHER_KEY, OTHER_LABEL, type TaxMapping } from "./mapping";
import { effectiveMapping, loadMapping } from "./mapping-store";
import * as q from "./queries";
import {
  buildLines,
  isoDay,
  type LineResult,
  type Member,
  type Override,
  yearRange,
  type YearRow,
} from "./rules";
import type { TaxPackResponse, TaxPackTransaction } from "./schemas";

interface YearPack {
  year: number;
  mapping: TaxMapping;
  lines: LineResult[];
  /** receipts per tx_id (the export streams them) */
  receipts: Map<string, { id: string; r2Key: string; contentType: string; size: number }[]>;
}

/** The effective mapping and the year's rows, receipts and overrides, in one batch. */
async function readYear(ctx: ServiceCtx, lo: string, hi: string) {
  const db = getDb(ctx.env.DB);
  const { stored, ...year } = await namedBatch(db, {
    stored: q.mappingQuery(db),
    rows: q.yearRows(db, lo, hi),
    receipts: q.yearReceipts(db, lo, hi),
    overrides: q.yearOverrides(db, lo, hi),
  });
  return { mapping: effectiveMapping(stored[0] ? stored[0].data : null).mapping, ...year };
}

/** Computes the year's lines (cents) with the receipts behind them. */
export async function computeYear(ctx: ServiceCtx, year: number): Promise<YearPack> {
  const [lo, hi] = yearRange(year);
  const { mapping, rows, receipts, overrides } = await readYear(ctx, lo, hi);
  const byTx: YearPack["receipts"] = new Map();
  for (const r of receipts) {
    if (!r.forwardedTo || !r.dateFileName) continue;
    const id = encodeTxId(r.forwardedTo, r.dateFileName);
    byTx.set(id, [
      ...(byTx.get(id) ?? []),
      { id: r.id, r2Key: r.r2Key, contentType: r.contentType, size: r.size },
    ]);
  }
  const ov = new Map<string, Override>();
  for (const o of overrides)
    ov.set(encodeTxId(o.tx_forwarded_to, o.tx_date_file_name), {
      mode: o.mode === "include" ? "include" : "exclude",
      lineKey: o.line_key,
    });
  const yearRows: YearRow[] = rows.map((r) => {
    const txId = encodeTxId(r.forwardedTo, r.dateFileName);
    return {
      txId,
      forwardedTo: r.forwardedTo,
      dateFileName: r.dateFileName,
      amount: r.amount ?? ZERO_CENTS,
      company: r.company ?? "",
      category: r.category ?? "",
      statementSource: r.statementSource,
      fileName: r.fileName,
      receipts: byTx.get(txId)?.length ?? 0,
    };
  });
  return { year, mapping, lines: buildLines(mapping, yearRows, ov), receipts: byTx };
}

const memberResponse = (m: Member): TaxPackTransaction => ({
  tx_id: m.row.txId,
  date: isoDay(m.row.dateFileName),
  company: m.row.company,
  amount: fromCents(m.row.amount),
  category: m.row.category,
  evidence: m.evidence,
  forwarded_to: m.row.forwardedTo,
  date_file_name: m.row.dateFileName,
  manual: m.manual,
});

export async function getTaxPack(ctx: ServiceCtx, year: number): Promise<TaxPackResponse> {
  const pack = await computeYear(ctx, year);
  const grand = sumCents(pack.lines.map((l) => l.total));
  return {
    year,
    grand_total: fromCents(grand),
    lines: pack.lines.map((l) => ({
      key: l.line.key,
      label: l.line.label,
      categories: l.line.categories,
      cra_ref: l.line.cra_ref,
      note: l.line.note,
      total: fromCents(l.total),
      transaction_count: l.members.length,
      evidence_counts: l.counts,
      transactions: l.members.map(memberResponse),
      excluded_transactions: l.excluded.map(memberResponse),
    })),
  };
}

/** The picker's options: every mapped line, then Other claimable. */
export async function taxLines(ctx: ServiceCtx) {
  const m = await loadMapping(ctx);
  return {
    lines: [...m.lines.map((l) => ({ key: l.key, label: l.label })), { key: OTHER_KEY, label: OTHER_LABEL }],
  };
}

/** The ledger image of an override (null when there is none). */
const overrideImage = (r: { mode: string; line_key: string | null } | null) =>
  r ? { mode: r.mode, line_key: r.line_key } : null;

type TxRow = Awaited<ReturnType<typeof q.txQuery>>[number] | undefined;

/** 404 unless the transaction is live, 422 unless it is spending. */
function requireSpending(tx: TxRow, loc: (string | number)[]): void {
  if (!tx || tx.deletedAt) throw notFound("Transaction");
  if (!isSpendingType(tx.type))
    throw validationError([
      { loc, msg: "Only spending-type transactions can be claimed", type: "value_error" },
    ]);
}

/** Upserts an include (into a line key or `other`) or an exclude; returns the ledger images. */
export async function setOverride(
  ctx: ServiceCtx,
  input: { tx_id: string; mode: "include" | "exclude"; line_key?: string | null },
) {
  const key = decodeTxId(input.tx_id);
  if (!key)
    throw validationError([{ loc: ["body", "tx_id"], msg: "Not a transaction id", type: "value_error" }]);
  const db = getDb(ctx.env.DB);
  requireSpending((await q.txQuery(db, key))[0], ["body", "tx_id"]);
  let lineKey: string | null = null;
  if (input.mode === "include") {
    const m = await loadMapping(ctx);
    lineKey = input.line_key?.trim() ?? "";
    if (!lineKey)
      throw validationError([
        { loc: ["body", "line_key"], msg: "An include needs a line_key", type: "missing" },
      ]);
    if (lineKey !== OTHER_KEY && !m.lines.some((l) => l.key === lineKey))
      throw validationError([
        { loc: ["body", "line_key"], msg: `Unknown claim line '${lineKey}'`, type: "value_error" },
      ]);
  }
  const before = overrideImage(await q.getOverride(db, key)) ?? {};
  const after = { mode: input.mode, line_key: lineKey };
  const summary = input.mode === "include" ? `Included in tax line ${lineKey}` : "Excluded from its tax line";
  ctx.journal({ kind: "tax_override", resourceId: input.tx_id, before, after, summary, reversible: true });
  await ctx.batch([q.upsertOverride(db, key, input.mode, lineKey, ctx.clock().toISOString())]);
  return { before, after };
}

/** Removes the override of a transaction (404 when there is none); returns the ledger image. */
export async function clearOverride(ctx: ServiceCtx, txId: string) {
  const key = decodeTxId(txId);
  const before = key ? overrideImage(await q.getOverride(getDb(ctx.env.DB), key)) : null;
  if (!key || !before) throw notFound("Tax override");
  const summary = "Cleared a tax override";
  ctx.journal({ kind: "tax_override", resourceId: txId, before, after: null, summary, reversible: true });
  await ctx.batch([q.deleteOverride(getDb(ctx.env.DB), key)]);
  return { before };
}

/** Reverter: the override's current image. */
export async function currentOverride(ctx: ServiceCtx, txId: string) {
  const key = decodeTxId(txId);
  return key ? overrideImage(await q.getOverride(getDb(ctx.env.DB), key)) : null;
}

/** Reverter: writes an image back (`{}` or null: no override); the revert's entry rides in its batch. */
export async function restoreOverride(
  ctx: ServiceCtx,
  { txId, image, journal }: { txId: string; image: Record<string, unknown> | null; journal?: () => void },
) {
  const key = decodeTxId(txId);
  if (!key) throw notFound("Transaction");
  const db = getDb(ctx.env.DB);
  const mode = image?.mode;
  const lineKey = typeof image?.line_key === "string" ? image.line_key : null;
  journal?.();
  const write =
    mode === "include" || mode === "exclude"
      ? q.upsertOverride(db, key, mode, lineKey, ctx.clock().toISOString())
      : q.deleteOverride(db, key);
  await ctx.batch([write]);
}
