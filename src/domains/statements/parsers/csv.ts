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
import { fileStatement } from "./balance";
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
import { decideOrder, fileDate, looksLikeDate } from "./file-dates";
import { notStatement, type ParseOutcome, type StatementRow } from "./index";
import type { z } from "zod";
import type { CsvMappingSchema, CsvState } from "../schemas";

export { csvTable };

export type CsvMapping = z.infer<typeof CsvMappingSchema>;
type State = z.infer<typeof CsvState>;
/** The first rows of a CSV as read with a mapping: cells, date and signed amount (null: not read). */
export type CsvPreviewRow = NonNullable<State["preview"]>[number];

/** Values a role's column must hold (most of its filled cells): dates, or amounts. */
const VALUES: Partial<Record<Role, (v: string) => boolean>> = {
  date: looksLikeDate,
  amount: (v) => parseMoney(v) !== null,
  withdrawal: (v) => parseMoney(v) !== null,
  deposit: (v) => parseMoney(v) !== null,
  balance: (v) => parseMoney(v) !== null,
};

/** Whether a column's values fit a role: half its filled cells or more read as its kind (an empty column is no date or amount). */
function holds(body: string[][], col: number, role: Role): boolean {
  const test = VALUES[role];
  if (!test || body.length === 0) return true;
  const cells = body.map((r) => (r[col] ?? "").trim()).filter(Boolean);
  if (cells.length === 0) return role !== "date" && role !== "amount";
  return cells.filter(test).length >= cells.length * 0.5;
}

/**
 * For each role, the column whose header names it best and whose values fit it ("Umsatz getätigt
 * von" holding card numbers is no amount; an empty "Dátum" beside a filled "Könyvelés dátuma" is no
 * date); a column serves its best role only.
 */
function columnsByRole(header: string[], body: string[][] = []) {
  const roles: Role[] = ["date", "description", "amount", "withdrawal", "deposit", "balance", "direction"];
  const best = header.map((cell, i) => {
    const scored = roles
      .map((r) => [r, roleScore(cell, r)] as const)
      .filter(([r, sc]) => sc > 0 && holds(body, i, r))
      .sort((a, b) => b[1] - a[1]);
    return scored[0] ?? null;
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

/**
 * How a signed amount column's signs were read, and why: as printed (negative is money out), or as
 * a card's (a purchase printed positive is money out). `weak`: the file's own evidence is thin, the
 * review says so and offers the other reading in one click.
 */
export type SignReading = NonNullable<State["sign"]>;

/** An amount printed with its own money-in mark ("+ 1,100.00", "1,100.00 CR", a "CR" cell beside it). */
const markedIn = (r: string[], col: number) =>
  /^\s*\+|\bCR\.?\s*$/i.test(r[col] ?? "") || /^\s*CR\.?\s*$/i.test(r[col + 1] ?? "");

/** The first card word of `text` that is not a debit card's ("by debit card", "Visa Debit"). */
function creditCardWord(text: string): string[] | null {
  const all = new RegExp(CARD_WORDS.source, "gi");
  for (const m of text.matchAll(all)) {
    const around = text.slice(Math.max(0, m.index - 7), m.index + m[0].length + 7);
    if (!/debit/i.test(around)) return [m[0]];
  }
  return null;
}

/** Rows a card prints as credits: payments, refunds, cashback. */
const CARD_CREDIT = new RegExp(
  `${PAYMENT_WORDS.source}|cash\\s*back|rebate|reward|remise|bonus|reversal`,
  "i",
);

/** The file a sign reading looks at: its header, rows, parsed amounts, decimal mark and text. */
interface SignInput {
  header: string[];
  body: string[][];
  amounts: (Cents | null)[];
  mark: DecimalMark;
  fileText?: string;
}

/**
 * The sign reading of a signed amount column from the file's evidence, strongest first: a balance
 * column whose changes follow the amounts one way or the other (an owed balance grows with
 * purchases); amounts marked money in one by one ("+", "CR") beside unmarked ones; card words in the
 * header or the file's first lines with purchases the majority; the majority alone (weak).
 */
export function signEvidence(
  map: CsvMapping,
  { header, body, amounts, mark, fileText = "" }: SignInput,
): SignReading {
  const col = map.amount!;
  const n = amounts.filter((a) => a !== null && a !== 0).length;
  if (map.balance !== null) {
    const bal = body.map((r) => parseMoney(r[map.balance!] ?? "", { decimal: mark }));
    let same = 0;
    let opposite = 0;
    // Oldest first the row's amount moves the balance to it; newest first, the row above's does.
    const dates = body.map((r) => fileDate(r[map.date] ?? "", map.date_order)).filter(Boolean);
    const newestFirst = dates.length > 1 && dates[0]! > dates.at(-1)!;
    for (let i = 1; i < body.length; i++) {
      const [a0, a1, b0, b1] = [amounts[i - 1], amounts[i], bal[i - 1], bal[i]];
      if (a0 == null || a1 == null || b0 == null || b1 == null) continue;
      const [step, a] = newestFirst ? [b0 - b1, a0] : [b1 - b0, a1];
      if (step === a) same++;
      else if (step === -a) opposite++;
    }
    if (same + opposite > 0 && same !== opposite)
      return same > opposite
        ? { card: false, weak: false, because: "the balance column moves with the amounts as printed" }
        : {
            card: true,
            weak: false,
            because: "the balance column grows with the positive amounts, as a card's balance owed does",
          };
  }
  const positives = amounts.filter((a) => (a ?? 0) > 0).length;
  const negatives = body.filter((_, i) => (amounts[i] ?? 0) < 0);
  const marked = body.filter((r) => markedIn(r, col)).length;
  if (negatives.length === 0 && marked > 0 && marked < positives)
    return {
      card: true,
      weak: false,
      because: `the file marks money in row by row (${marked} row${marked === 1 ? "" : "s"} marked + or CR); the unmarked rows are purchases`,
    };
  // Card words in the header or the file's first lines (a preamble, or a "Visa ending in 1234" payment column).
  const cardWord = creditCardWord(header.join(" ")) ?? creditCardWord(fileText.slice(0, 4000));
  const creditsOnly = negatives.every((r) => CARD_CREDIT.test(r.join(" ")));
  const share = `${positives} of ${n} amounts are positive${negatives.length && creditsOnly ? " and every negative one is a payment, refund or cashback" : ""}`;
  if (cardWord && positives > 0 && (positives > negatives.length || creditsOnly))
    return { card: true, weak: false, because: `the file names a card ("${cardWord[0]}") and ${share}` };
  if (creditsOnly && negatives.length > 0 && positives > negatives.length)
    return {
      card: true,
      weak: true,
      because: `${share}, as on a card export (no balance or card name to confirm it)`,
    };
  if (negatives.length === 0 && n >= 2)
    return {
      card: false,
      weak: true,
      because: `all ${n} amounts are positive and nothing in the file says whether they are money in or out: read as money in`,
    };
  return {
    card: false,
    weak: cardWord !== null,
    because: cardWord
      ? `the file names a card ("${cardWord[0]}") but most amounts are negative: read as printed`
      : "negative amounts are money out, as printed",
  };
}

/** A first guess from the header words and the values; null when no date or amount is named. */
export function guessMapping(header: string[], body: string[][], fileText = ""): CsvMapping | null {
  const c = columnsByRole(header, body);
  // A lone money-in or money-out column printing both signs is a signed amount ("Inflow": -33.87 is
  // money out; "Outflow": -5.00 is money in).
  const lone = c.amount.col === null && (c.withdrawal.col === null) !== (c.deposit.col === null);
  const loneOut = lone && c.withdrawal.col !== null;
  if (lone) {
    const side = loneOut ? c.withdrawal : c.deposit;
    if (body.some((r) => (parseMoney(r[side.col!] ?? "") ?? 0) < 0)) {
      c.amount = side;
      c.withdrawal = c.deposit = { col: null, score: 0 };
    }
  }
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
    if (map.direction === null) {
      const sign = signEvidence(map, { header, body, amounts, mark, fileText });
      map.negative_is = sign.card !== (loneOut && c.amount.col !== null) ? "deposit" : "withdrawal";
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

/** The rows a mapping reads (the header too when the file has none) and its money columns' decimal mark. */
function mapped(table: CsvTable, map: CsvMapping) {
  const body = map.has_header === false ? [table.header, ...table.body] : table.body;
  return { body, mark: moneyMark(body, [map.amount, map.withdrawal, map.deposit, map.balance]) };
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
    if (map.negative_is === "withdrawal") return a;
    // A card's reading: purchases printed positive are money out, a row marked money in stays in.
    return a > 0 && markedIn(r, map.amount) ? a : negCents(a);
  }
  const out = read(map.withdrawal);
  const inn = read(map.deposit);
  if (!out && !inn) return null;
  return subCents(absCents(inn ?? ZERO_CENTS), absCents(out ?? ZERO_CENTS));
}

/** The first rows with their dates and signed amounts, for the mapping form. */
export function previewRows(table: CsvTable, map: CsvMapping, n = 8): CsvPreviewRow[] {
  const { body, mark } = mapped(table, map);
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
  if (!table) return notStatement("This CSV holds no rows under its header");
  // One line and no header: the line is a transaction when it holds a date and an amount.
  const lone = table.body.length === 0 && given?.has_header !== false;
  if (lone && !(given === null && fallbackMapping(table.header, [table.header])))
    return notStatement("This CSV holds no rows under its header");
  const map = lone ? null : (given ?? guessMapping(table.header, table.body, text));
  if (!map) {
    const fallback = fallbackMapping(table.header, lone ? [table.header] : table.body);
    if (!fallback)
      return notStatement(
        "No column of this CSV holds dates beside a column of amounts: it does not look like a statement",
      );
    return {
      ok: false,
      reason: "needs_mapping",
      message:
        "The CSV's header does not name a date and an amount column in a language we know: say which column is which in the mapping form",
      table,
      mapping: fallback,
    };
  }
  const { body, mark } = mapped(table, map);
  const rows: StatementRow[] = [];
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
  });
  if (rows.length === 0)
    return notStatement(
      warnings[0] ?? "No row of this CSV has both a date and an amount in the mapped columns",
    );
  // Many exports list the newest row first: the balance chain runs oldest first.
  if (rows[0]!.date > rows.at(-1)!.date) rows.reverse();
  const sign =
    given === null && map.amount !== null && map.direction == null
      ? signEvidence(map, {
          header: table.header,
          body,
          amounts: body.map((r) => parseMoney(r[map.amount!] ?? "", { decimal: mark })),
          mark,
          fileText: text,
        })
      : null;
  if (noAmount > 0)
    warnings.push(
      `${noAmount} dated row${noAmount === 1 ? "" : "s"} without an amount in the mapped columns left out`,
    );
  return {
    ok: true,
    statement: fileStatement(
      rows,
      { owed: map.amount !== null && map.negative_is === "deposit", warnings },
      {
        institution: "Other",
        account_type: map.negative_is === "deposit" ? "credit_card" : "chequing",
        csv: { header: table.header, mapping: map, ...(sign ? { sign } : {}) },
      },
    ),
  };
}
