/**
 * Taught layouts applied to a PDF's text (pure): the first stored layout whose header stands on a
 * page reads the rows, and the shared assembly (period, years, balance check) finishes them. Also
 * what tells a PDF worth teaching (lines with a date and an amount) from one that is no statement.
 */
import type { StatementLayoutRecord } from "../../../db/schema";
import { type ParsedStatement, tableStatement } from "../parsers";
import { documentReading, summaryAmount } from "../parsers/assemble";
import { parseRowDate } from "../parsers/dates";
import { CLOSING, OPENING, readAmount, toLines } from "../parsers/layout";
import type { PdfText } from "../parsers/pdf-text";
import { type HeaderWord, headerLines } from "./fingerprint";
import { type LayoutMarks, readWithMarks } from "./read";
import { readLayoutHeader, readLayoutMarks } from "./stored";

/** The statement a taught layout reads, with whether the page printed an opening and a closing balance. */
export function readTaught(
  text: PdfText,
  layout: { marks: LayoutMarks; header: HeaderWord[] | null; institution: string },
  fallbackYear: number,
): { statement: ParsedStatement; printedOpening: boolean; printedClosing: boolean } | null {
  const lines = toLines(text.items);
  const tops = layout.header ? headerLines(lines, layout.header) : new Map<number, number>();
  if (layout.header && tops.size === 0) return null;
  const doc = documentReading(text);
  const table = readWithMarks(lines, layout.marks, doc, (p) => tops.get(p) ?? null);
  if (!table.rows.length) return null;
  const printed = {
    opening: table.opening ?? summaryAmount(lines, OPENING, doc.decimal),
    closing: table.closing ?? summaryAmount(lines, CLOSING, doc.decimal),
    totalIn: null,
    totalOut: null,
  };
  const statement = tableStatement(table, doc, printed, fallbackYear, layout.institution);
  return { statement, printedOpening: printed.opening !== null, printedClosing: printed.closing !== null };
}

/** The first stored layout that reads this PDF, with its id. */
export function readWithStored(
  text: PdfText,
  layouts: readonly StatementLayoutRecord[],
  fallbackYear: number,
): { statement: ParsedStatement; layoutId: string } | null {
  for (const l of layouts) {
    const statement = readTaught(
      text,
      { marks: readLayoutMarks(l.marks), header: readLayoutHeader(l.header), institution: l.institution },
      fallbackYear,
    )?.statement;
    if (statement) return { statement, layoutId: l.id };
  }
  return null;
}

/** At least two lines hold both a date and an amount: a table the person can mark. */
export function teachable(text: PdfText): boolean {
  const lines = toLines(text.items);
  let n = 0;
  for (const l of lines) {
    if (l.items.some((i) => parseRowDate(i.str)) && l.items.some((i) => readAmount(i.str))) n++;
    if (n >= 2) return true;
  }
  return false;
}

export const TEACH_WARNING =
  "No rows found: no table this journal knows was found in this PDF. Mark its date, description, amount and balance columns once in the review, and statements of this layout will read on their own";
