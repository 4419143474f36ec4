/**
 * Reconciliation (SPEC.md "Statement import"), pure. Four tiers over the stored rows of the
 * statement's period, each stored row matched at most once:
 *   previously imported  the row's synthetic key (or FITID key) is already stored
 *   1 exact              same date, amount within 1 cent, compatible type → matched
 *   2 suspected dup      same date and amount, a cross-type stored row of the same direction
 *   3 fuzzy              date within 2 days, same amount, compatible type → ambiguous
 *   4 new                no match → offered for import
 * Statement withdrawal ~ purchase/withdrawal/preauth/e-transfer-sent; deposit ~ e-transfer/deposit.
 * A row stored as `e-transfer` before directions were stored (migration 0025 gave most their
 * direction) may be a transfer sent as well as received, so against a statement withdrawal it is a
 * cross-type row of the same direction (tier 2). Opposite directions never match.
 */
import { type Cents, withinCents, asCents } from "../../lib/money";
import type { StatementType } from "./parsers";
import { dayNo, shiftDay } from "./parsers/dates";

export const AMOUNT_TOLERANCE = asCents(1);
export const FUZZY_DAYS = 2;

export const COMPATIBLE: Record<StatementType, readonly string[]> = {
  withdrawal: ["purchase", "withdrawal", "preauth", "e-transfer-sent"],
  deposit: ["e-transfer", "deposit"],
};
/** Stored types that may be money moving the statement row's way without being its type. */
const SAME_DIRECTION_CROSS: Record<StatementType, readonly string[]> = {
  withdrawal: ["e-transfer"],
  deposit: [],
};

export type Tier = "matched" | "ambiguous" | "suspected_duplicate" | "new" | "previously_imported";
export type Action = "import" | "skip" | "enrich" | "update";

export interface StoredTx {
  ForwardedTo: string;
  DateFileName: string;
  Amount: Cents | null;
  Company: string | null;
  Category: string | null;
  TransactionType: string | null;
  /** CategoryAudit.source of the stored row (a manual category is never overwritten). */
  categorySource: string | null;
}

export interface RowToReconcile {
  date: string;
  amount: Cents;
  type: StatementType;
  cleaned: string;
  suggested: string;
  /** The DateFileName an import of this row would get. */
  syntheticKey: string;
}

export interface Reconciled {
  tier: Tier;
  match: StoredTx | null;
  candidates: StoredTx[];
  reason: string | null;
  companyDiffers: boolean;
  enrichable: boolean;
  action: Action;
}

const dayOf = (dfn: string): string => dfn.slice(0, 10).replaceAll(".", "-");
const sameAmount = (s: StoredTx, r: RowToReconcile) =>
  s.Amount !== null && withinCents(s.Amount, r.amount, AMOUNT_TOLERANCE);
const compatible = (s: StoredTx, r: RowToReconcile) =>
  COMPATIBLE[r.type].includes((s.TransactionType ?? "").toLowerCase());

const MANUAL_SOURCES = new Set(["manual", "manual_edit", "manual_bulk", "audit"]);
export const isMisc = (c: string | null | undefined) => !c || c.trim().toLowerCase() === "miscellaneous";
export const isManualCategory = (source: string | null) => source !== null && MANUAL_SOURCES.has(source);

const squash = (s: string | null) => (s ?? "").toLowerCase().replace(/[^a-z0-9]/g, "");

/** The stored company names something else than the statement (neither contains the other). */
export function companyDiffers(stored: string | null, cleaned: string): boolean {
  const a = squash(stored);
  const b = squash(cleaned);
  if (!a || !b) return false;
  return !a.includes(b) && !b.includes(a);
}

/** Whether enrich would add something: a company where none is, or a real category over Miscellaneous. */
export function isEnrichable(s: StoredTx, cleaned: string, suggested: string): boolean {
  const company = !s.Company?.trim() && cleaned.trim() !== "";
  const category = !isManualCategory(s.categorySource) && isMisc(s.Category) && !isMisc(suggested);
  return company || category;
}

function settle(
  r: RowToReconcile,
  tier: Tier,
  match: StoredTx | null,
  candidates: StoredTx[],
  reason: string | null,
): Reconciled {
  const enrichable =
    match !== null && tier !== "previously_imported" && isEnrichable(match, r.cleaned, r.suggested);
  const action: Action = tier === "new" ? "import" : tier === "matched" && enrichable ? "enrich" : "skip";
  return {
    tier,
    match,
    candidates,
    reason,
    companyDiffers: match !== null && companyDiffers(match.Company, r.cleaned),
    enrichable,
    action,
  };
}

export function reconcile(rows: readonly RowToReconcile[], stored: readonly StoredTx[]): Reconciled[] {
  const used = new Set<StoredTx>();
  const byKey = new Map(stored.map((s) => [s.DateFileName, s]));
  // Stored rows by day (in stored order), each day's number computed once: a row only looks at
  // its own day and the fuzzy window around it, never at the whole period.
  const order = new Map(stored.map((s, i) => [s, i]));
  const byDay = new Map<number, StoredTx[]>();
  for (const s of stored) {
    const n = dayNo(dayOf(s.DateFileName));
    const list = byDay.get(n);
    if (list) list.push(s);
    else byDay.set(n, [s]);
  }
  const out: (Reconciled | null)[] = rows.map(() => null);
  const take = (s: StoredTx) => {
    used.add(s);
    return s;
  };
  const rowDay = rows.map((r) => dayNo(r.date));
  /** Unused stored rows within `days` of row i's date satisfying `pred`, in stored order. */
  const free = (i: number, days: number, pred: (s: StoredTx) => boolean) => {
    const found: StoredTx[] = [];
    for (let d = rowDay[i]! - days; d <= rowDay[i]! + days; d++) {
      for (const s of byDay.get(d) ?? []) if (!used.has(s) && pred(s)) found.push(s);
    }
    return days === 0 ? found : found.sort((a, b) => order.get(a)! - order.get(b)!);
  };
  const gap = (s: StoredTx, i: number) => Math.abs(dayNo(dayOf(s.DateFileName)) - rowDay[i]!);

  rows.forEach((r, i) => {
    const prior = byKey.get(r.syntheticKey);
    if (prior && !used.has(prior))
      out[i] = settle(r, "previously_imported", take(prior), [], "Imported from a statement before");
  });
  rows.forEach((r, i) => {
    if (out[i]) return;
    const hit = free(i, 0, (s) => sameAmount(s, r) && compatible(s, r))[0];
    if (hit) out[i] = settle(r, "matched", take(hit), [], null);
  });
  rows.forEach((r, i) => {
    if (out[i]) return;
    const hit = free(
      i,
      0,
      (s) =>
        sameAmount(s, r) && SAME_DIRECTION_CROSS[r.type].includes((s.TransactionType ?? "").toLowerCase()),
    )[0];
    if (hit) {
      const reason = `Same day and amount as a stored ${hit.TransactionType} (the statement says ${r.type})`;
      out[i] = settle(r, "suspected_duplicate", take(hit), [], reason);
    }
  });
  rows.forEach((r, i) => {
    if (out[i]) return;
    const near = free(i, FUZZY_DAYS, (s) => sameAmount(s, r) && compatible(s, r)).sort(
      (a, b) => gap(a, i) - gap(b, i),
    );
    if (near.length) {
      const best = take(near[0]!);
      const days = gap(best, i);
      const reason = `Same amount ${days} day${days === 1 ? "" : "s"} apart${near.length > 1 ? ` (${near.length} candidates)` : ""}`;
      out[i] = settle(r, "ambiguous", best, near, reason);
    }
  });
  return rows.map((r, i) => out[i] ?? settle(r, "new", null, [], null));
}

/** The window of stored rows a statement can match: its period widened by the fuzzy window. */
export function matchWindow(dates: readonly string[]): { lo: string; hi: string } | null {
  if (!dates.length) return null;
  const sorted = [...dates].sort();
  return { lo: shiftDay(sorted[0]!, -FUZZY_DAYS), hi: shiftDay(sorted.at(-1)!, FUZZY_DAYS + 1) };
}

/** Statement status from its rows (SPEC.md "States and transitions"). */
export function statementStatus(
  rows: readonly { edited: number; action_result: string | null }[],
): "pending_review" | "in_progress" | "complete" {
  if (rows.length > 0 && rows.every((r) => r.action_result !== null)) return "complete";
  return rows.some((r) => r.edited || r.action_result !== null) ? "in_progress" : "pending_review";
}

/** Occurrence of each row among identical (date, amount, raw description) rows before it (the key hash has no type). */
export function occurrences(
  rows: readonly { date: string; type: string; amount: Cents; description: string }[],
): number[] {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    const k = `${r.date}|${r.amount}|${r.description}`;
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    return n;
  });
}

/** A new random id: `stmt_` and 16 hex digits (`lay_` for a layout). */
export const newId = (prefix = "stmt") =>
  `${prefix}_${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("")}`;

/** `stmt_<institution>` slug for synthetic keys: lowercase letters, digits and dashes. */
export const institutionSlug = (institution: string) =>
  institution
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "other";

/** "2025-03-10" → "03/10/2025 00:00 PST" (SPEC.md's statement Date). */
export const statementDate = (iso: string) =>
  `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)} 00:00 PST`;
