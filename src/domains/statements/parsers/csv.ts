/**
 * Bank CSV exports, read through a column mapping: which column holds the date, the description,
 * one signed amount or money-out and money-in columns (or an unsigned amount with a debit/credit
 * type column), an optional balance; the date order (decided once per file from all its dates); and
 * the sign convention (a card export printing purchases positive is flipped). The mapping is guessed
 * from the header words (csv-words.ts) and the values, then confirmed by the person once per header
 * layout and remembered (../csv-mappings.ts). A header nothing names is refused with a best guess
 * and a preview, so the mapping form can open on it. Amounts go through the one money parser with
 * the decimal mark decided from the file's money columns. Pure.
 */
import {
  type Cents,
  type DecimalMark,
  detectNumberFormat,
  fromCents,
  parseMoney,
  negCents,
  absCents,
  subCents,
  ZERO_CENTS,
} from "../../../lib/money";
import { checkBalances } from "./balance";
import { type CsvTable, csvTable } from "./csv-table";
import {
  CARD_WORDS,
  DAY_FIRST_HEADER,
  directionOf,
  foldHeader,
  PAYMENT_WORDS,
  type Role,
  roleScore,
} from "./csv-words";
import { type DateOrder, decideOrder, fileDate, looksLikeDate } from "./file-dates";
import type { ParseOutcome, StatementRow } from "./index";
import type { LayoutRow } from "./layout";

export { csvTable };

export interface CsvMapping {
  date: number;
  description: number;
  /** One signed amount column, or null when withdrawal and deposit columns are used. */
  amount: number | null;
  withdrawal: number | null;
  deposit: number | null;
  balance: number | null;
  date_order: DateOrder;
  /** What a negative signed amount means (a card export often shows purchases positive). */
  negative_is: "withdrawal" | "deposit";
  /** A column of debit/credit words giving the direction of an unsigned amount. */
  direction?: number | null;
  /** false when the file has no header row (its first row is a transaction). */
  has_header?: boolean;
}

/** The first rows of a CSV as read with a mapping: cells, date and signed amount (null: not read). */
export interface CsvPreviewRow {
  cells: string[];
  date: string | null;
  amount: number | null;
}

/** For each role, the column whose header names it best (a column serves its best role only). */
function columnsByRole(header: string[]) {
  const roles: Role[] = ["date", "description", "amount", "withdrawal", "deposit", "balance", "direction"];
  const best = header.map((cell) => {
    const scored = roles.map((r) => [r, roleScore(cell, r)] as const).sort((a, b) => b[1] - a[1]);
    return scored[0]![1] > 0 ? scored[0]! : null;
  });
  const pick = (role: Role) => {
    let col: number | null = null;
    let top = 0;
    best.forEach((b, i) => {
      if (b && b[0] === role && b[1] > top) [col, top] = [i, b[1]];
    });
    return { col, score: top };
  };
  return Object.fromEntries(roles.map((r) => [r, pick(r)])) as Record<
    Role,
    { col: number | null; score: number }
  >;
}

const filled = (body: string[][], col: number | null) =>
  col === null ? 0 : body.filter((r) => (r[col] ?? "").trim() !== "").length;

/** The decimal mark of the file's money columns, decided from all their values together. */
function moneyMark(body: string[][], cols: (number | null)[]): DecimalMark {
  const values = cols.flatMap((c) => (c === null ? [] : body.map((r) => r[c] ?? "")));
  return detectNumberFormat(values).decimal;
}

/** A first guess from the header words and the values; null when no date or amount is named. */
export function guessMapping(header: string[], body: string[][], fileText = ""): CsvMapping | null {
  const c = columnsByRole(header);
  const twoColumns = c.withdrawal.col !== null && c.deposit.col !== null;
  const useAmount =
    c.amount.col !== null &&
    (!twoColumns || c.amount.score >= 1500 || filled(body, c.amount.col) >= filled(body, c.withdrawal.col));
  if (c.date.col === null || (!useAmount && !twoColumns)) return null;
  const dayFirst = DAY_FIRST_HEADER.test(foldHeader(header.join(" ")));
  const mark = moneyMark(body, [c.amount.col, c.withdrawal.col, c.deposit.col, c.balance.col]);
  const map: CsvMapping = {
    date: c.date.col,
    description: c.description.col ?? c.date.col,
    amount: useAmount ? c.amount.col : null,
    withdrawal: useAmount ? null : c.withdrawal.col,
    deposit: useAmount ? null : c.deposit.col,
    balance: c.balance.col,
    date_order: decideOrder(
      body.map((r) => r[c.date.col!] ?? ""),
      dayFirst || mark === "," ? "dmy" : null,
    ),
    negative_is: "withdrawal",
    direction: null,
    has_header: true,
  };
  if (map.amount !== null) {
    const amounts = body.map((r) => parseMoney(r[map.amount!] ?? "", { decimal: mark }));
    const unsigned = amounts.every((a) => a === null || a >= 0);
    // An unsigned amount beside a debit/credit column: the column gives the direction.
    const dirCol = c.direction.col;
    if (unsigned && dirCol !== null) {
      const dirs = body.map((r) => directionOf(r[dirCol] ?? ""));
      if (dirs.filter(Boolean).length >= body.length * 0.8 && dirs.includes("out")) map.direction = dirCol;
    }
    // A card export: card words, no balance, and payments as the only negatives.
    if (map.direction === null && map.balance === null) {
      const card = CARD_WORDS.test(header.join(" ")) || CARD_WORDS.test(fileText.slice(0, 4000));
      const negatives = body.filter((_, i) => (amounts[i] ?? 0) < 0);
      const onlyPayments = negatives.every((r) => PAYMENT_WORDS.test(r.join(" ")));
      const positives = amounts.filter((a) => (a ?? 0) > 0).length;
      if (card && onlyPayments && positives > negatives.length) map.negative_is = "deposit";
    }
  }
  return map;
}

/** Best effort for a header nothing names: a date-looking column and a number column; null when none. */
export function fallbackMapping(header: string[], body: string[][]): CsvMapping | null {
  const sample = body.slice(0, 50);
  const ratio = (i: number, test: (v: string) => boolean) =>
    sample.filter((r) => test(r[i] ?? "")).length / Math.max(1, sample.length);
  const cols = header.map((_, i) => i);
  const date = cols.find((i) => ratio(i, looksLikeDate) > 0.6);
  const money = cols.filter(
    (i) => i !== date && ratio(i, (v) => /\d/.test(v) && parseMoney(v) !== null) > 0.6,
  );
  if (date === undefined || money.length === 0) return null;
  const text = cols.find(
    (i) => i !== date && !money.includes(i) && ratio(i, (v) => /\p{L}{3}/u.test(v)) > 0.6,
  );
  return {
    date,
    description: text ?? date,
    amount: money[0]!,
    withdrawal: null,
    deposit: null,
    balance: money.length > 1 ? money.at(-1)! : null,
    date_order: decideOrder(body.map((r) => r[date] ?? "")),
    negative_is: "withdrawal",
    direction: null,
    has_header: !looksLikeDate(header[date] ?? ""),
  };
}

/** One row's signed cents under the mapping (null: no amount on this row). */
function signedAmount(r: string[], map: CsvMapping, mark: DecimalMark): Cents | null {
  const read = (col: number | null | undefined) =>
    col == null ? null : parseMoney(r[col] ?? "", { decimal: mark });
  if (map.amount !== null) {
    const a = read(map.amount);
    if (a === null) return null;
    if (map.direction != null) {
      const dir = directionOf(r[map.direction] ?? "");
      return dir === "out" ? negCents(absCents(a)) : dir === "in" ? absCents(a) : a;
    }
    return map.negative_is === "withdrawal" ? a : negCents(a);
  }
  const out = read(map.withdrawal);
  const inn = read(map.deposit);
  if (!out && !inn) return null;
  return subCents(absCents(inn ?? ZERO_CENTS), absCents(out ?? ZERO_CENTS));
}

/** The first rows with their dates and signed amounts, for the mapping form. */
export function previewRows(table: CsvTable, map: CsvMapping, n = 8): CsvPreviewRow[] {
  const body = map.has_header === false ? [table.header, ...table.body] : table.body;
  const mark = moneyMark(body, [map.amount, map.withdrawal, map.deposit, map.balance]);
  return body.slice(0, n).map((cells) => {
    const a = signedAmount(cells, map, mark);
    return {
      cells,
      date: fileDate(cells[map.date] ?? "", map.date_order),
      amount: a === null ? null : fromCents(a),
    };
  });
}

export type CsvOutcome =
  | ParseOutcome
  | { ok: false; reason: "needs_mapping"; message: string; table: CsvTable; mapping: CsvMapping };

export function parseCsv(text: string, given: CsvMapping | null = null): CsvOutcome {
  const table = csvTable(text);
  if (!table || (table.body.length === 0 && given?.has_header !== false))
    return { ok: false, reason: "not_a_statement", message: "This CSV holds no rows under its header" };
  const map = given ?? guessMapping(table.header, table.body, text);
  if (!map) {
    const fallback = fallbackMapping(table.header, table.body);
    if (!fallback)
      return {
        ok: false,
        reason: "not_a_statement",
        message:
          "No column of this CSV holds dates beside a column of amounts: it does not look like a statement",
      };
    return {
      ok: false,
      reason: "needs_mapping",
      message:
        "The CSV's header does not name a date and an amount column in a language we know: say which column is which in the mapping form",
      table,
      mapping: fallback,
    };
  }
  const body = map.has_header === false ? [table.header, ...table.body] : table.body;
  const mark = moneyMark(body, [map.amount, map.withdrawal, map.deposit, map.balance]);
  const rows: StatementRow[] = [];
  const layout: LayoutRow[] = [];
  const warnings: string[] = [];
  let noAmount = 0;
  body.forEach((r, i) => {
    const raw = r[map.date] ?? "";
    const date = fileDate(raw, map.date_order);
    if (!date) {
      if (looksLikeDate(raw))
        warnings.push(`Row ${i + 1}: the date "${raw}" does not exist; the row was left out`);
      return;
    }
    const signed = signedAmount(r, map, mark);
    if (signed === null) noAmount++;
    if (signed === null || signed === 0) return;
    const description = (r[map.description] ?? "").replace(/\s+/g, " ").trim() || "Transaction";
    const bal = map.balance !== null ? parseMoney(r[map.balance] ?? "", { decimal: mark }) : null;
    rows.push({
      date,
      description,
      amount: absCents(signed),
      type: signed < 0 ? "withdrawal" : "deposit",
      balance: bal,
    });
    layout.push({
      date: { year: 0, month: 0, day: 0 },
      description,
      withdrawal: signed < 0 ? negCents(signed) : null,
      deposit: signed > 0 ? signed : null,
      balance: bal === null ? null : { cents: bal, truncated: false },
    });
  });
  if (rows.length === 0)
    return {
      ok: false,
      reason: "not_a_statement",
      message: warnings[0] ?? "No row of this CSV has both a date and an amount in the mapped columns",
    };
  // Many exports list the newest row first: the balance chain runs oldest first.
  if (rows[0]!.date > rows.at(-1)!.date) {
    rows.reverse();
    layout.reverse();
  }
  const { balances, check } = checkBalances(layout, null, null, { in: null, out: null });
  check.warnings.push(...warnings);
  if (noAmount > 0)
    check.warnings.push(
      `${noAmount} dated row${noAmount === 1 ? "" : "s"} without an amount in the mapped columns left out`,
    );
  const sorted = rows.map((r) => r.date).sort();
  return {
    ok: true,
    statement: {
      institution: "Other",
      account_type: map.negative_is === "deposit" ? "credit_card" : "chequing",
      period_start: sorted[0]!,
      period_end: sorted.at(-1)!,
      parsed_with_ai: false,
      rows: rows.map((r, i) => ({ ...r, balance: balances[i] ?? r.balance })),
      balance: check,
      csv: { header: table.header, mapping: map },
    },
  };
}
