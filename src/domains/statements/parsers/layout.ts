/**
 * The layout engine every PDF parser shares: text items → lines (by y) → the transaction table
 * found by its column headers (by x). A withdrawal and a deposit differ only by column, so each
 * amount goes to the header column its x-span is nearest. Rows may wrap (amounts on the first or
 * the last line), share one printed date, and continue over pages that repeat the headers. Pure.
 */
import { negCents } from "../../../lib/money";
import type { Cents, DecimalMark } from "../../../lib/money";
import { readAmount } from "./amount";
import type { Printed } from "./balance";
import { type ColumnKind, type Columns, columnOf, headerColumns } from "./layout-columns";
import { type DateOrder, type PartialDate, parseRowDate } from "./dates";
import { furnitureOf, withoutFurniture } from "./furniture";
import type { TextItem } from "./pdf-text";

export { looksLikeAmount, readAmount } from "./amount";

export interface Line {
  page: number;
  y: number;
  items: TextItem[];
}

export interface LayoutRow {
  date: PartialDate;
  description: string;
  withdrawal: Cents | null;
  deposit: Cents | null;
  /** The printed balance, and whether it was cut short (one decimal shown). */
  balance: Printed | null;
  /** The side a CR or DR mark on the amount named (it holds whatever the column's sign convention). */
  side?: "credit" | "debit";
}

export interface LayoutResult {
  rows: LayoutRow[];
  /** The table had one signed amount column (a card statement's sign convention may differ). */
  signedColumn: boolean;
  opening: Printed | null;
  closing: Printed | null;
  headerFound: boolean;
}

const Y_TOLERANCE = 2.5;

/** Items grouped into lines, top to bottom within each page, left to right within a line. */
export function toLines(items: readonly TextItem[]): Line[] {
  const sorted = [...items].sort((a, b) => a.page - b.page || b.y - a.y || a.x - b.x);
  const lines: Line[] = [];
  for (const it of sorted) {
    const last = lines.at(-1);
    if (last && last.page === it.page && Math.abs(last.y - it.y) <= Y_TOLERANCE) last.items.push(it);
    else lines.push({ page: it.page, y: it.y, items: [it] });
  }
  for (const l of lines) l.items.sort((a, b) => a.x - b.x);
  return lines;
}

export const lineText = (l: Line): string => l.items.map((i) => i.str).join(" ");

export const OPENING =
  /(opening|beginning|starting|previous(\s*statement)?|last\s*(month|statement)'?s?)\s*balance|balance\s*(brought\s*)?forward|^brought\s*forward|^b\/f\b|alter\s*(konto)?stand|alter\s*saldo|anfangssaldo|solde\s*(précédent|precedent|initial|d'ouverture|reporté|reporte|au\s*\d)|ancien\s*solde|saldo\s*(anterior|inicial|iniziale|precedente)|beginsaldo/i;
export const CLOSING =
  /(closing|ending|new)\s*balance|^total\s*amount\s*due\b|neuer\s*(konto)?stand|neuer\s*saldo|endsaldo|nouveau\s*solde|solde\s*(final|de\s*clôture|nouveau)|saldo\s*(final|actual)|eindsaldo/i;
const PAGE_END =
  /^page\s*\d+\s*(of|\/)\s*\d+$|balance\s*carried\s*forward|^carried\s*forward|^c\/f\b|continued on next page|end of transactions|^übertrag|^report\b|à reporter|suma y sigue/i;
/** Total and subtotal lines are never rows (they sum the rows above; the table goes on after them). */
export const TOTAL_LINE =
  /^(sub-?\s?totals?|totals?\b|grand\s*total|sous-?total|total\s*des|summe|zwischensumme|gesamt|totale|subtotale|totaal|suma\b|summe\b)/i;
/** Lines that steer the table: kept even when printed identically on every page. */
const COURSE = [PAGE_END, TOTAL_LINE, OPENING, CLOSING];
/** A net-activity line ("Net amount of monthly activity", "Net change"): a total, never a row. */
const NET_LINE = /^net\s+(amount|activity|change|movement|total)/i;
const SUB_HEADER = /^(date|dates|\(\$\)|\$|cad|posted|eff\.?|trans\.?)$/i;

interface Pending {
  row: LayoutRow;
  lastY: number;
  page: number;
  hasAmounts: boolean;
  /** The amounts were on the row's first (dated) line. */
  amountsFirst: boolean;
}

/** Two lines close together read as one (a header whose words wrap onto a second line). */
const merged = (a: Line, b: Line | undefined): Line | null =>
  b && b.page === a.page && a.y - b.y > 0 && a.y - b.y < 14
    ? { page: a.page, y: a.y, items: [...a.items, ...b.items].sort((x, y) => x.x - y.x) }
    : null;

interface Parts {
  date: PartialDate | null;
  desc: string;
  descX: number | null;
  amounts: {
    kind: ColumnKind;
    cents: Cents;
    negative: boolean;
    truncated: boolean;
    side?: "credit" | "debit";
  }[];
}

/** What the whole document settled once: its numeric date order and its decimal mark. */
export interface ReadOptions {
  order?: DateOrder | null;
  decimal?: DecimalMark;
}

/**
 * Two amounts the PDF set as one piece of text ("10,000.00 0.00": two columns' cells run together)
 * are two cells, each given its share of the width. A space inside one number ("2 795.35") is not.
 */
function amountPair(it: TextItem): TextItem[] {
  const m = /^(\S*\d[.,]\d{2}\)?)\s+(\S*\d[.,]\d{2}\)?)$/.exec(it.str);
  if (!m || !readAmount(m[1]!) || !readAmount(m[2]!)) return [it];
  const share = it.w / it.str.length;
  const w1 = m[1]!.length * share;
  return [
    { ...it, str: m[1]!, w: w1 },
    { ...it, x: it.x + it.w - m[2]!.length * share, str: m[2]!, w: m[2]!.length * share },
  ];
}

function splitLine(cols: Columns, line: Line, opts: ReadOptions): Parts {
  const dateItems: TextItem[] = [];
  const descItems: TextItem[] = [];
  const amounts: Parts["amounts"] = [];
  for (const it of line.items.flatMap(amountPair)) {
    const amt = it.x + it.w > cols.amountLeft - 30 ? readAmount(it.str, opts.decimal) : null;
    if (amt) amounts.push({ kind: columnOf(cols, it), ...amt });
    else if (cols.skip.some((k) => it.x >= k.x0 - 4 && it.x < k.x1 + 4)) continue;
    // Left of the description column is the date zone, but for text the page set a little left of
    // it (another page's margin) that runs on under the description.
    else if (it.x < cols.descX - 1 && !(it.x > cols.descX - 6 && it.x + it.w > cols.descX + 2))
      dateItems.push(it);
    else descItems.push(it);
  }
  let date: PartialDate | null = null;
  // A date may be printed in pieces ("07", "/", "07"): joined with spaces, then as one word; it may
  // follow another column of the date zone (a receipt or reference number).
  for (let from = 0; from < dateItems.length && !date; from++) {
    for (let n = 1; n <= Math.min(3, dateItems.length - from) && !date; n++) {
      const strs = dateItems.slice(from, from + n).map((i) => i.str);
      date =
        parseRowDate(strs.join(" "), opts.order ?? null) ?? parseRowDate(strs.join(""), opts.order ?? null);
    }
  }
  // Text in the date zone that is no date belongs to the description (or ends the table).
  const strays = date ? [] : dateItems;
  const all = [...strays, ...descItems];
  return { date, desc: all.map((i) => i.str).join(" "), descX: all[0]?.x ?? null, amounts };
}

/** Runs the table state machine over every page. */
export function readTable(lines: readonly Line[], opts: ReadOptions = {}): LayoutResult {
  const rows: LayoutRow[] = [];
  let opening: LayoutResult["opening"] = null;
  let closing: LayoutResult["closing"] = null;
  let cols: Columns | null = null;
  let headerFound = false;
  let cur: Pending | null = null;
  let carry: Line[] = [];
  let lastDate: PartialDate | null = null;
  /** Rows from this index on are not yet summed by a total line. */
  let sinceTotal = 0;
  let inTable = false;
  let prevY = 0;
  let headerY = Number.NaN;
  let page = 0;
  let done = false;
  let spacing = 20;
  // How this document wraps rows, learnt from its dated rows: amounts on the first or the last line.
  let firstStyle = 0;
  let lastStyle = 0;

  /**
   * Carried lines go to the row above. Where the table ends (a page, a total, a footer), only those
   * set as close as the document's wrapped lines go: a footer further down is no row's text.
   */
  const flushCarry = (evidence = false, ending = false) => {
    if (ending && cur) {
      let y = carry[0]?.page === cur.page ? cur.lastY : Number.NEGATIVE_INFINITY;
      const near = carry.findIndex((l) => {
        const far = y - l.y > Math.max(1.6 * spacing, 14);
        y = l.y;
        return far;
      });
      if (near >= 0) carry = carry.slice(0, near);
    }
    if (cur && carry.length) {
      if (evidence && cur.amountsFirst) firstStyle++;
      cur.row.description = [cur.row.description, ...carry.map(lineText)].join(" ").trim();
    }
    carry = [];
  };

  /**
   * Carried lines (no date, no amounts) that open the row starting at `y` rather than continue the
   * row above: all of them when this document puts amounts on a row's last line, none when on its
   * first; otherwise the run splits at its widest gap (wrapped lines of one row are set tighter
   * than rows), a tie staying with the row above.
   */
  const takePrefix = (y: number, pageNo: number): Line[] => {
    if (lastStyle > firstStyle) return carry.splice(0);
    if (firstStyle > lastStyle || !cur) return [];
    // Only lines on this row's page can open it.
    let from = carry.length;
    while (from > 0 && carry[from - 1]!.page === pageNo) from--;
    const ys = [
      cur.page === pageNo && from === 0 ? cur.lastY : Number.POSITIVE_INFINITY,
      ...carry.slice(from).map((l) => l.y),
      y,
    ];
    let split = ys.length - 2;
    for (let i = ys.length - 2; i >= 0; i--)
      if (ys[i]! - ys[i + 1]! > ys[split]! - ys[split + 1]! + 0.5) split = i;
    return carry.splice(from + split);
  };

  const furniture = furnitureOf(lines);
  for (let li = 0; li < lines.length; li++) {
    const raw = lines[li]!;
    if (done) break;
    if (raw.page !== page) {
      flushCarry(false, true);
      page = raw.page;
      inTable = false;
    }
    // A header's words may wrap onto a second line ("Transaction" over "Date", "Withdraw" over "n").
    const alone = headerColumns(raw);
    const next = lines[li + 1];
    const tail =
      alone && next?.items.every((i) => !readAmount(i.str) && !parseRowDate(i.str)) ? next : undefined;
    const pair = alone ? merged(raw, tail) : merged(raw, next);
    const header = (pair && headerColumns(pair)) ?? alone;
    if (header) {
      cols = header;
      headerFound = true;
      inTable = true;
      prevY = raw.y;
      headerY = raw.y;
      if (pair && header !== alone) li++;
      continue;
    }
    if (!cols) continue;
    // Page furniture mixed into a row's line is dropped; a line of furniture alone is skipped unless
    // it marks the table's course (a page's end, a total, a balance).
    const clean = withoutFurniture(raw, furniture);
    if (clean.items.length === 0 && !COURSE.some((re) => re.test(lineText(raw)))) continue;
    const line = clean.items.length ? clean : raw;
    if (line.items.every((i) => SUB_HEADER.test(i.str))) continue;
    const parts = splitLine(cols, line, opts);
    // A header word's wrapped tail just under the header ("Withdraw" / "n") is no row's text.
    if (inTable && !parts.date && !parts.amounts.length && prevY === headerY && prevY - line.y < 10) continue;
    const text = parts.desc;
    const gap = prevY - line.y;
    if (!inTable) {
      // A continuation page without repeated headers: the table resumes at the first dated amount row.
      if (!(parts.date && parts.amounts.length)) continue;
      inTable = true;
    } else if (
      gap > Math.max(3.2 * spacing, 45) ||
      (!parts.date && !parts.amounts.length && (parts.descX ?? 0) < cols.descX - 5)
    ) {
      flushCarry(false, true);
      inTable = false;
      continue;
    }
    // The amount in a foreign currency is the bank's note, never a move nor a balance.
    parts.amounts = parts.amounts.filter((a) => a.kind !== "foreign");
    const balanceAmt = parts.amounts.find((a) => a.kind === "balance") ?? parts.amounts.at(-1);
    if (OPENING.test(text)) {
      if (!opening && balanceAmt) opening = signed(balanceAmt);
      prevY = line.y;
      continue;
    }
    if (CLOSING.test(text)) {
      flushCarry(false, true);
      if (balanceAmt) closing = signed(balanceAmt);
      done = true;
      break;
    }
    if (TOTAL_LINE.test(text)) {
      flushCarry(false, true);
      sinceTotal = rows.length;
      inTable = false;
      continue;
    }
    if (PAGE_END.test(text)) {
      flushCarry(false, true);
      inTable = false;
      if (/end of transactions/i.test(text)) done = true;
      continue;
    }
    if (gap > 0 && gap < 40) spacing = Math.min(spacing, Math.max(gap, 8));
    prevY = line.y;
    const moves = parts.amounts.filter((a) => a.kind !== "balance");
    const bal = parts.amounts.find((a) => a.kind === "balance");
    /** A row opening on this line, under `date`, with the carried lines that open it. */
    const open = (date: PartialDate, evidence: boolean): Pending => {
      const prefix = takePrefix(line.y, line.page);
      flushCarry(evidence);
      const description = [...prefix.map(lineText), text].join(" ").trim();
      const row: LayoutRow = { date, description, withdrawal: null, deposit: null, balance: null };
      const p = { row, lastY: line.y, page: line.page, hasAmounts: false, amountsFirst: moves.length > 0 };
      if (moves.length) setAmounts(p, moves, bal);
      rows.push(row);
      return p;
    };
    if (parts.date) {
      lastDate = parts.date;
      cur = open(parts.date, true);
      continue;
    }
    if (moves.length) {
      if (cur && !cur.hasAmounts) {
        // Amounts printed on the last line of a wrapped row.
        lastStyle++;
        flushCarry();
        cur.row.description = [cur.row.description, text].join(" ").trim();
        setAmounts(cur, moves, bal);
        cur.lastY = line.y;
        continue;
      }
      if (!lastDate) continue;
      // A net-activity line, or a dateless amount equal to the net of the rows above whatever
      // words it carries, is their total: never a row.
      if (NET_LINE.test(text) || sumsRows(rows.slice(sinceTotal), moves)) {
        flushCarry();
        sinceTotal = rows.length;
        continue;
      }
      // Another row under the same printed date.
      cur = open(lastDate, false);
      continue;
    }
    if (!text) {
      // A balance alone on its line closes the day of the row above.
      if (bal && cur && !cur.row.balance) cur.row.balance = signed(bal);
      continue;
    }
    if (cur && !cur.hasAmounts) {
      cur.row.description = `${cur.row.description} ${text}`.trim();
      cur.lastY = line.y;
    } else carry.push(line);
  }
  flushCarry(false, true);
  return {
    signedColumn:
      cols?.spans.some((x) => x.kind === "amount") === true &&
      !cols.spans.some((x) => x.kind === "withdrawal"),
    rows: rows.filter((r) => r.withdrawal !== null || r.deposit !== null),
    opening,
    closing,
    headerFound,
  };
}

/** One amount equal to the net (money in minus money out, either sign) of two or more rows. */
function sumsRows(rows: readonly LayoutRow[], moves: Parts["amounts"]): boolean {
  if (rows.length < 2 || moves.length !== 1) return false;
  const net = rows.reduce((sum, r) => sum + (r.deposit ?? 0) - (r.withdrawal ?? 0), 0);
  return net !== 0 && Math.abs(net) === moves[0]!.cents;
}

/** A read amount with its sign applied. */
export const signed = (a: { cents: Cents; negative: boolean; truncated: boolean }) => ({
  cents: a.negative ? negCents(a.cents) : a.cents,
  truncated: a.truncated,
});

function setAmounts(p: Pending, moves: Parts["amounts"], bal: Parts["amounts"][number] | undefined) {
  // Some statements print 0.00 in the column a row does not use: the other column holds the move.
  const m = moves.find((a) => a.cents !== 0) ?? moves[0]!;
  if (m.kind === "withdrawal") p.row.withdrawal = m.cents;
  else if (m.kind === "deposit") p.row.deposit = m.cents;
  else placeSigned(p.row, m);
  if (bal) p.row.balance = signed(bal);
  p.hasAmounts = true;
}

/** One signed "Amount" column's cell: negative (or trailing minus) is money out; CR and DR name a side. */
export function placeSigned(
  row: LayoutRow,
  a: { cents: Cents; negative: boolean; side?: "credit" | "debit" },
): void {
  if (a.side) row.side = a.side;
  if (a.side === "debit" || (!a.side && a.negative)) row.withdrawal = a.cents;
  else row.deposit = a.cents;
}

/**
 * The sign of one signed amount column, by the evidence the statement gives (as a CSV's): amounts
 * printed without any sign or mark take their side from the running balance when the printed
 * balances rise and fall by them; otherwise a card statement (owed balance) reads a plain amount
 * as a purchase and a negative one as a payment. A CR or DR mark always holds.
 */
export function settleSigns(
  table: { rows: LayoutRow[]; signedColumn: boolean },
  owed: boolean,
  opening: Printed | null,
) {
  if (!table.signedColumn) return;
  const rows = table.rows;
  const unsigned = rows.every((r) => r.withdrawal === null && !r.side);
  const sides = unsigned ? sidesByBalance(rows, owed, opening) : null;
  for (const [i, r] of rows.entries()) {
    const side = sides?.[i];
    if (side) {
      r.withdrawal = side === "debit" ? r.deposit : null;
      r.deposit = side === "credit" ? r.deposit : null;
    } else if (owed && !r.side) [r.withdrawal, r.deposit] = [r.deposit, r.withdrawal];
  }
}

/** Each unsigned row's side where the balance printed before and after it moved by its amount. */
function sidesByBalance(rows: readonly LayoutRow[], owed: boolean, opening: Printed | null) {
  let prev = opening && !opening.truncated ? opening.cents : null;
  let fell = 0;
  let rose = 0;
  const sides = rows.map((r) => {
    const amt = r.deposit!;
    const bal = r.balance && !r.balance.truncated ? r.balance.cents : null;
    let side: "credit" | "debit" | null = null;
    if (prev !== null && bal !== null && amt !== 0) {
      // On a card the balance is owed: a purchase (debit) raises it.
      if (prev - amt === bal) side = owed ? "credit" : "debit";
      else if (prev + amt === bal) side = owed ? "debit" : "credit";
      if (side) prev - amt === bal ? fell++ : rose++;
    }
    prev = bal;
    return side;
  });
  // Evidence only when the balance moved both ways by the amounts printed (and most rows agree).
  const decided = fell + rose;
  return fell > 0 && rose > 0 && decided * 2 >= rows.length ? sides : null;
}
