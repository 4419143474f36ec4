/**
 * Receipt matching (pure): which transactions a receipt might explain, in tiers.
 *   T1  amount within 0.02, the same day, and the same normalized+aliased merchant
 *   T2  amount within 0.02, within 3 days
 *   T3  a restaurant-type row up to 20% above the receipt (the tip), within 3 days
 * The search window is the receipt's day ±3, which reaches into the adjacent month only near a
 * boundary. Rows that already carry a receipt are demoted below the others, never hidden.
 * Exactly one T1 row without a receipt is the auto-link candidate.
 */
import { type Cents, withinCents, asCents, absCents, subCents } from "../../lib/money";

export const AMOUNT_TOLERANCE = asCents(2);
const DAY_WINDOW = 3;
const TIP_BAND = 0.2;
const MAX_CANDIDATES = 8;
/** Categories (lowercase) where a card charge above the receipt is a tip. */
const TIP_CATEGORIES: ReadonlySet<string> = new Set(["restaurant/dining", "coffee & cafes"]);

export interface ReceiptFacts {
  totalCents: Cents;
  /** YYYY-MM-DD */
  day: string;
  /** Normalized and alias-resolved; "" when unknown. */
  merchantKey: string;
}

export interface TxFacts {
  txId: string;
  day: string;
  amountCents: Cents;
  company: string;
  merchantKey: string;
  category: string;
  hasReceipt: boolean;
}

export interface Ranked {
  tx: TxFacts;
  tier: 1 | 2 | 3;
  dayDistance: number;
  amountDistance: Cents;
}

const DAY_MS = 86_400_000;

function dayNumber(day: string): number {
  const [y, m, d] = day.split("-").map(Number);
  return Math.round(Date.UTC(y!, m! - 1, d!) / DAY_MS);
}

function daysBetween(a: string, b: string): number {
  return Math.abs(dayNumber(a) - dayNumber(b));
}

/** YYYY-MM-DD shifted by `days`. */
export function shiftDay(day: string, days: number): string {
  return new Date((dayNumber(day) + days) * DAY_MS).toISOString().slice(0, 10);
}

/** DateFileName bounds [lo, hi) of the search window (the day ±3; crosses a month edge only near one). */
export function searchBounds(day: string): { lo: string; hi: string } {
  const dot = (d: string) => d.replaceAll("-", ".");
  return { lo: dot(shiftDay(day, -DAY_WINDOW)), hi: dot(shiftDay(day, DAY_WINDOW + 1)) };
}

/** The tier of one row, or null when it is no candidate. */
export function tierOf(r: ReceiptFacts, tx: TxFacts): Ranked["tier"] | null {
  const days = daysBetween(r.day, tx.day);
  if (days > DAY_WINDOW) return null;
  if (withinCents(tx.amountCents, r.totalCents, AMOUNT_TOLERANCE)) {
    const sameMerchant = r.merchantKey !== "" && r.merchantKey === tx.merchantKey;
    return days === 0 && sameMerchant ? 1 : 2;
  }
  const tipCeiling = Math.round(r.totalCents * (1 + TIP_BAND)) + AMOUNT_TOLERANCE;
  if (
    TIP_CATEGORIES.has(tx.category.toLowerCase()) &&
    tx.amountCents > r.totalCents &&
    tx.amountCents <= tipCeiling
  ) {
    return 3;
  }
  return null;
}

/** Every candidate best first: unreceipted before receipted, then tier, days apart, amount apart. */
function rankAll(r: ReceiptFacts, rows: readonly TxFacts[]): Ranked[] {
  const ranked: Ranked[] = [];
  for (const tx of rows) {
    const tier = tierOf(r, tx);
    if (tier === null) continue;
    ranked.push({
      tx,
      tier,
      dayDistance: daysBetween(r.day, tx.day),
      amountDistance: absCents(subCents(tx.amountCents, r.totalCents)),
    });
  }
  ranked.sort(
    (a, b) =>
      Number(a.tx.hasReceipt) - Number(b.tx.hasReceipt) ||
      a.tier - b.tier ||
      a.dayDistance - b.dayDistance ||
      a.amountDistance - b.amountDistance ||
      a.tx.txId.localeCompare(b.tx.txId),
  );
  return ranked;
}

/** What the caller sees: at most 8, and the auto-link target judged over all of them. */
export function rankCandidates(
  r: ReceiptFacts,
  rows: readonly TxFacts[],
): { shown: Ranked[]; autoLink: Ranked | null } {
  const all = rankAll(r, rows);
  return { shown: all.slice(0, MAX_CANDIDATES), autoLink: autoLinkTarget(all) };
}

/** The one row to link automatically: exactly one T1 candidate, and it has no receipt yet. */
function autoLinkTarget(ranked: readonly Ranked[]): Ranked | null {
  const t1 = ranked.filter((c) => c.tier === 1);
  return t1.length === 1 && !t1[0]!.tx.hasReceipt ? t1[0]! : null;
}
