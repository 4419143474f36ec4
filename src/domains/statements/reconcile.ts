/**
 * Parsed statement → review rows: cleaned descriptions, suggested categories (override resolver
 * tiers 0-2, tier 3 fuzzy at the reconciler's 0.85 when AI categorization is on), synthetic keys
 * and the four reconciliation tiers against the stored rows of the period. Reparse passes the
 * previous rows so a person's edits and settled results survive.
 */
import { plainCents, type Cents } from "../../lib/money";
import { getDb } from "../../db";
import { aiFor } from "../../ai/routing";
import { FALLBACK_CATEGORY } from "../../categorize/categories";
import { FUZZY_THRESHOLD_RECONCILER, resolveFuzzy } from "../../categorize/fuzzy";
import { getResolverIndex } from "../../categorize/resolver";
import { resolveDeterministic } from "../../categorize/rules";
import type { StatementRowRecord } from "../../db/schema";
import { getConfig } from "../config/service";
import type { ServiceCtx } from "../../lib/context";
import { log } from "../../lib/log";
import { sha256Hex } from "../../ingest/hash";
import type { ParsedStatement } from "./parsers";
import { cleanDescription } from "./parsers/clean";
import { type Guessed, periodReads, type Settings } from "./period";
import type { RowWithKey } from "./queries";
import { institutionSlug, isMisc, occurrences, reconcile, type RowToReconcile, type StoredTx } from "./rules";
import { transferReason } from "./transfers";

/** Suggested category per distinct cleaned description. */
async function suggestCategories(
  ctx: ServiceCtx,
  names: string[],
  known: string,
  settings: Settings | undefined,
): Promise<Map<string, string>> {
  const index = await getResolverIndex(getDb(ctx.env.DB), ctx.clock, known);
  const out = new Map<string, string>();
  const misses: string[] = [];
  for (const n of new Set(names)) {
    const hit = resolveDeterministic(index, n);
    if (hit) out.set(n, hit.category);
    else misses.push(n);
  }
  const config = settings ?? (await getConfig(ctx));
  const ai =
    config.ai_categorization_enabled && misses.length
      ? aiFor(ctx.env, config, "categorization", { maxRetries: 1 })
      : null;
  for (const n of misses) {
    let category = FALLBACK_CATEGORY;
    if (ai) {
      try {
        const nowIso = ctx.clock().toISOString();
        const input = { ai, index, company: n, nowIso, threshold: FUZZY_THRESHOLD_RECONCILER };
        const hit = await resolveFuzzy(getDb(ctx.env.DB), input);
        if (hit) category = hit.category;
      } catch (err) {
        log("warn", "statements.fuzzy_failed", { error: String(err) });
      }
    }
    out.set(n, category);
  }
  return out;
}

/** `YYYY.MM.DD_00.00_stmt_<institution>_<hash8>.<ext>`; the hash uses the raw description (or the FITID). */
export async function syntheticKey(
  institution: string,
  ext: string,
  row: { date: string; amount: Cents; description: string; fitid?: string | null },
  occurrence: number,
): Promise<string> {
  const base = row.fitid ? `fitid|${row.fitid}` : `${row.date}|${plainCents(row.amount)}|${row.description}`;
  const hash = (await sha256Hex(occurrence > 0 ? `${base}|${occurrence}` : base)).slice(0, 8);
  return `${row.date.replaceAll("-", ".")}_00.00_stmt_${institutionSlug(institution)}_${hash}.${ext}`;
}

export async function buildRows(
  ctx: ServiceCtx,
  {
    statementId,
    parsed,
    fileKind,
    previous = [],
    guessed = null,
    config,
  }: {
    statementId: string;
    parsed: ParsedStatement;
    fileKind: string;
    previous?: StatementRowRecord[];
    /** An upload's rows read before the parse over a guessed window (used when it covers the parse's). */
    guessed?: Guessed | null;
    /** The settings the verb took at its start (else read here). */
    config?: Settings;
  },
): Promise<RowWithKey[]> {
  const cleaned = parsed.rows.map((r) => cleanDescription(r.description));
  const { resolverVersion, stored, others } = await periodReads(ctx, {
    statementId,
    dates: parsed.rows.map((r) => r.date),
    guessed,
  });
  const suggested = await suggestCategories(ctx, cleaned, resolverVersion, config);
  const occ = occurrences(parsed.rows);
  const keys = await Promise.all(
    parsed.rows.map((r, i) => syntheticKey(parsed.institution, fileKind, r, occ[i]!)),
  );
  const input: RowToReconcile[] = parsed.rows.map((r, i) => ({
    date: r.date,
    amount: r.amount,
    type: r.type,
    cleaned: cleaned[i]!,
    suggested: suggested.get(cleaned[i]!) ?? FALLBACK_CATEGORY,
    syntheticKey: keys[i]!,
  }));
  // Trashed rows keep their keys (previously imported) but never match as live rows.
  const live = stored.filter((x) => !x.deleted);
  const trashedKeys = new Map(stored.filter((x) => x.deleted).map((x) => [x.DateFileName, x]));
  const results = reconcile(input, [
    ...live,
    ...[...trashedKeys.values()].filter((x) => keys.includes(x.DateFileName)),
  ]);
  const transfers = parsed.rows.map((r, i) =>
    results[i]!.tier === "new" ? transferReason(r, parsed, others) : null,
  );
  const rowIds = await Promise.all(
    parsed.rows.map(async (_r, i) => `sr_${(await sha256Hex(`${statementId}|${keys[i]}`)).slice(0, 12)}`),
  );
  const before = new Map(previous.map((p) => [p.row_id, p]));
  return parsed.rows.map((r, i) => {
    const res = results[i]!;
    const m = res.match;
    const old = before.get(rowIds[i]!);
    const kept = old && (old.edited || old.action_result !== null);
    return {
      synthetic_key: keys[i]!,
      statement_id: statementId,
      tx_index: i,
      row_id: rowIds[i]!,
      date: r.date,
      raw_description: r.description,
      cleaned_description: cleaned[i]!,
      amount: r.amount,
      type: r.type,
      balance: r.balance,
      occurrence: occ[i]!,
      fitid: r.fitid ?? null,
      reconcile_tier: res.tier,
      db_forwarded_to: m?.ForwardedTo ?? null,
      db_date_file_name: m?.DateFileName ?? null,
      db_company: m?.Company ?? null,
      db_amount: m?.Amount ?? null,
      db_category: m?.Category ?? null,
      db_transaction_type: m?.TransactionType ?? null,
      company_differs: res.companyDiffers ? 1 : 0,
      enrichable: res.enrichable ? 1 : 0,
      // A new row's reason is why it looks like a transfer (it then defaults to skip).
      reason: res.reason ?? transfers[i] ?? null,
      candidates: res.candidates.length ? res.candidates.map(dbMatch) : null,
      // A row matching a stored transaction shows that row's category (unless it is the fallback).
      suggested_category: m?.Category && !isMisc(m.Category) ? m.Category : input[i]!.suggested,
      action: kept ? old.action : transfers[i] ? "skip" : res.action,
      edited: kept ? old.edited : 0,
      edited_company: kept ? old.edited_company : null,
      edited_category: kept ? old.edited_category : null,
      action_result: kept ? old.action_result : null,
      acted_at: kept ? old.acted_at : null,
    };
  });
}

const dbMatch = (m: StoredTx) => ({
  forwarded_to: m.ForwardedTo,
  date_file_name: m.DateFileName,
  company: m.Company,
  amount: m.Amount,
  category: m.Category,
});
