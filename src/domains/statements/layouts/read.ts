/**
 * A PDF read with a layout a person taught: each marked column is an x-span (date, description,
 * amount or withdrawal and deposit, balance). Items go to the mark they overlap (or stand nearest,
 * within a gap); a line with a date and an amount opens a row, an amount under the last date opens
 * another, description-only lines continue the row above. Total and balance-forward lines are not
 * rows; opening/closing lines give the printed balances. The header line the layout was taught on
 * (its fingerprint, fingerprint.ts) marks where each page's table starts. Pure.
 */
import type { z } from "zod";
import type { DocumentReading } from "../parsers/assemble";
import type { Printed } from "../parsers/balance";
import { parseRowDate } from "../parsers/dates";
import {
  CLOSING,
  type LayoutRow,
  type Line,
  lineText,
  OPENING,
  placeSigned,
  readAmount,
  signed,
  TOTAL_LINE,
} from "../parsers/layout";
import type { TextItem } from "../parsers/pdf-text";
import type { LayoutMarks as LayoutMarksSchema } from "./schemas";

export type LayoutMarks = z.infer<typeof LayoutMarksSchema>;
export type Role = keyof LayoutMarks;
export type Span = LayoutMarks["date"];

/** How far (points) an item may stand outside a marked span and still belong to it. */
const REACH = 18;

function roleOf(marks: LayoutMarks, it: TextItem): Role | null {
  let best: Role | null = null;
  let bestGap = REACH;
  for (const [role, s] of Object.entries(marks) as [Role, Span][]) {
    if (!s) continue;
    const x1 = it.x + it.w;
    const overlap = Math.min(x1, s.x1) - Math.max(it.x, s.x0);
    const gap = overlap > 0 ? -overlap : Math.min(Math.abs(it.x - s.x1), Math.abs(s.x0 - x1));
    if (gap < bestGap) {
      best = role;
      bestGap = gap;
    }
  }
  return best;
}

export interface TaughtTable {
  rows: LayoutRow[];
  opening: Printed | null;
  closing: Printed | null;
  signedColumn: boolean;
}

/** `startY(page)`: the y of the page's header line (rows are read below it), or null (whole page). */
export function readWithMarks(
  lines: readonly Line[],
  marks: LayoutMarks,
  doc: DocumentReading,
  startY: (page: number) => number | null,
): TaughtTable {
  const rows: LayoutRow[] = [];
  let opening: Printed | null = null;
  let closing: Printed | null = null;
  let cur: LayoutRow | null = null;
  let lastDate: LayoutRow["date"] | null = null;
  let lastY = 0;
  let page = 0;
  for (const line of lines) {
    if (line.page !== page) {
      page = line.page;
      cur = null;
    }
    const top = startY(line.page);
    if (top !== null && line.y >= top - 1) continue;
    const by: Partial<Record<Role, TextItem[]>> = {};
    for (const it of line.items) {
      const role = roleOf(marks, it);
      if (role) by[role] = [...(by[role] ?? []), it];
    }
    const text = (r: Role) => (by[r] ?? []).map((i) => i.str).join(" ");
    const amountOf = (r: Role) => {
      for (const it of by[r] ?? []) {
        const a = readAmount(it.str, doc.decimal);
        if (a) return a;
      }
      return null;
    };
    const desc = text("description");
    const whole = lineText(line);
    const bal = amountOf("balance");
    if (OPENING.test(whole) || CLOSING.test(whole)) {
      const a = bal ?? amountOf("amount") ?? amountOf("deposit") ?? amountOf("withdrawal");
      if (a && OPENING.test(whole) && !opening) opening = signed(a);
      else if (a && CLOSING.test(whole)) closing = signed(a);
      continue;
    }
    if (TOTAL_LINE.test(desc) || TOTAL_LINE.test(text("date"))) continue;
    const date =
      parseRowDate(text("date"), doc.order) ??
      (by.date?.[0] ? parseRowDate(by.date[0].str, doc.order) : null);
    const out = amountOf("withdrawal");
    const inn = amountOf("deposit");
    const one = amountOf("amount");
    const move = out ?? inn ?? one;
    if (move) {
      const row: LayoutRow = cur && !rowHasMove(cur) && !date ? cur : blankRow((date ?? lastDate)!, "");
      if (!row.date) continue;
      if (out) row.withdrawal = out.cents;
      else if (inn) row.deposit = inn.cents;
      else placeSigned(row, one!);
      if (bal) row.balance = signed(bal);
      row.description = [row.description, desc].join(" ").trim();
      if (row !== cur) rows.push(row);
      cur = row;
      lastDate = row.date;
      lastY = line.y;
      continue;
    }
    if (date) {
      // A dated line whose amount comes on a later line of the same row.
      cur = blankRow(date, desc);
      rows.push(cur);
      lastDate = date;
      lastY = line.y;
      continue;
    }
    if (cur && desc && lastY - line.y < 40) {
      cur.description = `${cur.description} ${desc}`.trim();
      lastY = line.y;
    } else if (bal && cur && !cur.balance) cur.balance = signed(bal);
  }
  return {
    rows: rows.filter(rowHasMove),
    opening,
    closing,
    signedColumn: Boolean(marks.amount) && !marks.withdrawal,
  };
}

const blankRow = (date: LayoutRow["date"], description: string): LayoutRow => ({
  date,
  description,
  withdrawal: null,
  deposit: null,
  balance: null,
});

const rowHasMove = (r: LayoutRow) => r.withdrawal !== null || r.deposit !== null;
