/**
 * The balance column checks the parse: opening + deposits − withdrawals must reach every printed
 * balance and the closing balance. A parse whose balances do not chain is wrong, and says so.
 * Some generators cut the last decimal of a wide balance column ("4,882.2"): a truncated value
 * matches any amount it is a prefix of. Pure.
 */
import {
  type Cents,
  plainCents,
  negCents,
  sumCents,
  subCents,
  ZERO_CENTS,
  addCents,
  absCents,
} from "../../../lib/money";
import type { ParsedStatement, StatementRow } from "./index";
import type { LayoutRow } from "./layout";

export interface Printed {
  cents: Cents;
  truncated: boolean;
}

export interface BalanceCheck {
  ok: boolean;
  opening: Cents | null;
  closing: Cents | null;
  /** Row indexes whose printed balance disagrees with the running balance. */
  mismatches: number[];
  warnings: string[];
}

/** The check of rows that were not checked (no balance read), with the reason in `warnings`. */
export const unchecked = (warnings: string[]): BalanceCheck => ({
  ok: false,
  opening: null,
  closing: null,
  mismatches: [],
  warnings,
});

/** A printed balance matches a computed one (a truncated print covers the ten cents it cuts off). */
export function printedMatches(p: Printed, computed: Cents): boolean {
  if (!p.truncated) return p.cents === computed;
  return p.cents >= 0
    ? computed >= p.cents && computed <= p.cents + 9
    : computed <= p.cents && computed >= p.cents - 9;
}

/** What a row does to the balance; on a card (owed) balance a purchase raises it. */
const moveOf =
  (owed: boolean) =>
  (r: LayoutRow): Cents => {
    const net = subCents(r.deposit ?? ZERO_CENTS, r.withdrawal ?? ZERO_CENTS);
    return owed ? negCents(net) : net;
  };
const fmt = plainCents;

/** Opening balance: printed exactly, else derived from an exact closing or the first exact printed balance. */
function openingOf(
  rows: readonly LayoutRow[],
  opening: Printed | null,
  closing: Printed | null,
  move: (r: LayoutRow) => Cents,
): Cents | null {
  if (opening && !opening.truncated) return opening.cents;
  const net = sumCents(rows.map(move));
  if (closing && !closing.truncated) return subCents(closing.cents, net);
  let before = ZERO_CENTS;
  for (const r of rows) {
    before = addCents(before, move(r));
    if (r.balance && !r.balance.truncated) return subCents(r.balance.cents, before);
  }
  return opening?.cents ?? null;
}

/** Fills every row's running balance (when an opening is known) and reports where the chain breaks. */
export function checkBalances(
  rows: readonly LayoutRow[],
  opening: Printed | null,
  closing: Printed | null,
  totals: { in: Cents | null; out: Cents | null },
  owed = false,
): { balances: (Cents | null)[]; check: BalanceCheck } {
  const move = moveOf(owed);
  const warnings: string[] = [];
  const mismatches: number[] = [];
  const start = openingOf(rows, opening, closing, move);
  if (start !== null && opening && !printedMatches(opening, start)) {
    warnings.push(
      `The opening balance ${fmt(opening.cents)} does not agree with the rows and the closing balance`,
    );
  }
  let running = start;
  const balances = rows.map((r, i) => {
    if (running === null) return r.balance && !r.balance.truncated ? r.balance.cents : null;
    running = addCents(running, move(r));
    if (r.balance && !printedMatches(r.balance, running)) {
      mismatches.push(i);
      warnings.push(
        `Row ${i + 1}: printed balance ${fmt(r.balance.cents)}, computed ${fmt(running)} (off by ${fmt(absCents(subCents(r.balance.cents, running)))})`,
      );
    }
    return running;
  });
  if (running !== null && closing && !printedMatches(closing, running)) {
    warnings.push(
      `The closing balance ${fmt(closing.cents)} does not match the rows (computed ${fmt(running)}, a difference of ${fmt(absCents(subCents(closing.cents, running)))})`,
    );
  }
  const sumIn = sumCents(rows.map((r) => r.deposit ?? ZERO_CENTS));
  const sumOut = sumCents(rows.map((r) => r.withdrawal ?? ZERO_CENTS));
  if (totals.in !== null && totals.in !== sumIn)
    warnings.push(`Deposits add up to ${fmt(sumIn)}, the statement says ${fmt(totals.in)}`);
  if (totals.out !== null && totals.out !== sumOut)
    warnings.push(`Withdrawals add up to ${fmt(sumOut)}, the statement says ${fmt(totals.out)}`);
  if (start === null) warnings.push("No opening or closing balance found: the rows could not be checked");
  const closingCents = closing && !closing.truncated ? closing.cents : running;
  return {
    balances,
    check: { ok: warnings.length === 0, opening: start, closing: closingCents, mismatches, warnings },
  };
}

/**
 * Whether a stored statement's rows were checked against balances at all: `checkBalances` gives
 * every row a running balance once it knows an opening, and leaves them all null exactly when no
 * opening, closing or printed balance was found ("could not be checked"); an AI read is never
 * checked. The review shows an unchecked file as a note, a checked one that fails as an alert.
 */
export function balancesChecked(parsedWithAi: boolean, rows: readonly { balance: number | null }[]): boolean {
  return !parsedWithAi && rows.some((r) => r.balance !== null);
}

/**
 * Rows the printed balances step over: a row whose own printed balance does not follow (0.00, or
 * the balance before it, unchanged) while the next row's printed balance follows from the balance
 * before it as if the row were not there. Such a line is the bank's information (a refused debit
 * order, a card check), not a move of money; a misread amount never passes, since the next balance
 * would carry the difference. Returns the rows kept and those left out.
 */
export function informationRows(
  rows: readonly LayoutRow[],
  opening: Printed | null,
  owed = false,
): { kept: LayoutRow[]; left: LayoutRow[] } {
  const move = moveOf(owed);
  const kept: LayoutRow[] = [];
  const left: LayoutRow[] = [];
  let before: Cents | null = opening && !opening.truncated ? opening.cents : null;
  for (const [i, r] of rows.entries()) {
    const own = r.balance && !r.balance.truncated ? r.balance.cents : null;
    const next = rows[i + 1]?.balance;
    const stepped =
      before !== null &&
      own !== null &&
      (own === 0 || own === before) &&
      own !== addCents(before, move(r)) &&
      next &&
      !next.truncated &&
      next.cents === addCents(before, move(rows[i + 1]!));
    if (stepped) {
      left.push(r);
      continue;
    }
    kept.push(r);
    before = own ?? (before === null ? null : addCents(before, move(r)));
  }
  return { kept, left };
}

/**
 * A file's signed rows (OFX, CAMT, MT940, CSV) checked as one chain from `opening` to `closing`,
 * each row given its running balance where it printed none; the reader's own `warnings` follow
 * the check's.
 */
export function chainRows(
  rows: StatementRow[],
  {
    opening = null,
    closing = null,
    owed = false,
    warnings,
  }: { opening?: Cents | null; closing?: Cents | null; owed?: boolean; warnings: string[] },
): { rows: StatementRow[]; balance: BalanceCheck } {
  const printed = (cents: Cents | null) => (cents === null ? null : { cents, truncated: false });
  const layout: LayoutRow[] = rows.map((r) => ({
    date: { year: 0, month: 0, day: 0 },
    description: r.description,
    withdrawal: r.type === "withdrawal" ? r.amount : null,
    deposit: r.type === "deposit" ? r.amount : null,
    balance: printed(r.balance),
  }));
  const { balances, check } = checkBalances(
    layout,
    printed(opening),
    printed(closing),
    { in: null, out: null },
    owed,
  );
  check.warnings.push(...warnings);
  return { rows: rows.map((r, i) => ({ ...r, balance: balances[i] ?? r.balance })), balance: check };
}

/** A text file's statement of signed rows (chainRows): its period the printed one, else its rows' first and last dates. */
export function fileStatement(
  rows: StatementRow[],
  chain: Parameters<typeof chainRows>[1],
  s: Omit<ParsedStatement, "rows" | "balance" | "parsed_with_ai" | "period_start" | "period_end"> &
    Partial<Pick<ParsedStatement, "period_start" | "period_end">>,
): ParsedStatement {
  const dates = rows.map((r) => r.date).sort();
  return {
    ...s,
    period_start: s.period_start ?? dates[0] ?? null,
    period_end: s.period_end ?? dates.at(-1) ?? null,
    parsed_with_ai: false,
    ...chainRows(rows, chain),
  };
}
