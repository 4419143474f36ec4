/**
 * What every PDF reading shares once its table rows are read (by the rules or by a taught layout):
 * the document's date order and decimal mark, the period and each row's year, the opening and
 * closing balances from the summary boxes, the balance check, and the warnings a person must see
 * (a year taken from the upload date, a check that does not add up). Pure.
 */
import { type Cents, type DecimalMark, detectNumberFormat, absCents, plainCents } from "../../../lib/money";
import { type BalanceCheck, checkBalances, informationRows, type Printed } from "./balance";
import { type DateOrder, dateOrderOf, documentYear, findPeriod, printedDates, resolveYear } from "./dates";
import { type LayoutRow, type Line, lineText, looksLikeAmount, readAmount, signed } from "./layout";
import type { PdfText } from "./pdf-text";

export interface DocumentReading {
  order: DateOrder | null;
  decimal: DecimalMark;
  full: string;
}

/** The date order and decimal mark of the whole document, decided once from all its text. */
export function documentReading(text: PdfText): DocumentReading {
  const strs = text.items.map((i) => i.str);
  const full = strs.join(" ");
  return {
    order: dateOrderOf(strs, full),
    decimal: detectNumberFormat(strs.filter(looksLikeAmount)).decimal,
    full,
  };
}

/**
 * The amount of the first summary label matching `re` (summary boxes, anywhere on the page): the
 * amount printed last on the label's line, else the amount printed just below the label (a box of
 * labels over values), the one standing nearest the label's column.
 */
export function summaryAmount(lines: readonly Line[], re: RegExp, decimal: DecimalMark) {
  for (const [i, l] of lines.entries()) {
    if (!re.test(lineText(l))) continue;
    for (const it of [...l.items].reverse()) {
      const a = readAmount(it.str, decimal);
      if (a) return signed(a);
    }
    const label = l.items.find((it) => re.test(it.str)) ?? l.items[0]!;
    const below = lines[i + 1];
    if (!below || below.page !== l.page || l.y - below.y > 20) continue;
    const near = below.items
      .filter((it) => it.x >= label.x - 20 && readAmount(it.str, decimal))
      .sort((a, b) => a.x - b.x)[0];
    if (near) return signed(readAmount(near.str, decimal)!);
  }
  return null;
}

export interface Assembled {
  rows: {
    date: string;
    description: string;
    amount: Cents;
    type: "withdrawal" | "deposit";
    balance: Cents | null;
  }[];
  period_start: string | null;
  period_end: string | null;
  balance: BalanceCheck;
}

/** Rows printed newest first (dates mostly falling down the page): the check walks them oldest first. */
function newestFirst(rows: readonly LayoutRow[]): boolean {
  let down = 0;
  let up = 0;
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1]!.date, rows[i]!.date];
    if ((a.year === null) !== (b.year === null)) continue;
    const cmp = (b.year ?? 0) - (a.year ?? 0) || b.month - a.month || b.day - a.day;
    if (cmp < 0) down++;
    else if (cmp > 0) up++;
  }
  return down > up;
}

export function assemble(
  printedRows: readonly LayoutRow[],
  doc: DocumentReading,
  printed: {
    opening: Printed | null;
    closing: Printed | null;
    totalIn: Cents | null;
    totalOut: Cents | null;
  },
  owed: boolean,
  fallbackYear: number,
): Assembled {
  const ordered = newestFirst(printedRows) ? [...printedRows].reverse() : printedRows;
  const { kept: rows, left } = informationRows(ordered, printed.opening, owed);
  const { balances, check } = checkBalances(
    rows,
    printed.opening,
    printed.closing,
    {
      in: printed.totalIn === null ? null : absCents(printed.totalIn),
      out: printed.totalOut === null ? null : absCents(printed.totalOut),
    },
    owed,
  );
  const period = findPeriod(doc.full, doc.order);
  const warnings = [
    ...check.warnings,
    ...left.map(
      (r) =>
        `Left out "${r.description.replace(/\s+/g, " ").trim().slice(0, 60)}" (${plainCents((r.withdrawal ?? r.deposit)!)}): the printed balances step over it, so it moved no money (the bank's information line)`,
    ),
  ];
  let year = fallbackYear;
  const yearless = rows.some((r) => r.date.year === null);
  const printedYear = !period && yearless ? documentYear(doc.full, doc.order) : null;
  if (printedYear) year = printedYear;
  const janYear = !period && yearless ? yearEndCrossed(rows, doc, year) : null;
  if (!period && yearless) {
    const where = printedYear
      ? `${printedYear}, the year the statement prints`
      : `${fallbackYear}, the year of the upload`;
    warnings.push(
      janYear !== null
        ? `No statement period was found: the rows run over a year end, dated from ${where} (the months before January in ${janYear - 1}); check the dates`
        : printedYear
          ? `No statement period was found: rows without a year were dated in ${where}; check the dates`
          : `No statement period or year was found: rows were dated in ${where}; check the dates`,
    );
  }
  const out = rows.map((r, i) => ({
    date:
      janYear !== null && r.date.year === null
        ? resolveYear({ ...r.date, year: r.date.month >= 7 ? janYear - 1 : janYear }, null, year)
        : resolveYear(r.date, period, year),
    description: r.description.replace(/\s+/g, " ").trim(),
    amount: (r.withdrawal ?? r.deposit)!,
    type: (r.withdrawal !== null ? "withdrawal" : "deposit") as "withdrawal" | "deposit",
    balance: balances[i] ?? null,
  }));
  const dates = out.map((r) => r.date).sort();
  return {
    rows: out,
    period_start: period?.start ?? dates[0] ?? null,
    period_end: period?.end ?? dates.at(-1) ?? null,
    // A year guessed from the upload date is a warning, but the rows still add up: ok stays the check's.
    balance: { ...check, warnings },
  };
}

/**
 * With no period printed, yearless rows that run from late in a year into the next (December then
 * January, in either order) straddle a year end: the year of January's side, from the year the
 * statement prints (on its January side when a full date it prints falls in the first half of that
 * year, else on December's), or else the year of the upload (made after the statement). Null when
 * the rows do not cross a year end.
 */
function yearEndCrossed(rows: readonly LayoutRow[], doc: DocumentReading, year: number): number | null {
  const months = rows.filter((r) => r.date.year === null).map((r) => r.date.month);
  let crossed = false;
  for (let i = 1; i < months.length; i++) {
    const [a, b] = [months[i - 1]!, months[i]!];
    if ((a >= 10 && b <= 3) || (a <= 3 && b >= 10)) crossed = true;
  }
  if (!crossed || months.some((m) => m >= 5 && m <= 8)) return null;
  const printed = printedDates(doc.full, doc.order).filter((d) => Number(d.slice(0, 4)) === year);
  if (!printed.length) return year;
  return printed.some((d) => Number(d.slice(5, 7)) <= 6) ? year : year + 1;
}
