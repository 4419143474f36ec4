/**
 * Bank CSV exports, read through a column mapping: which column holds the date, the description,
 * one signed amount or withdrawal and deposit columns, an optional balance; the date order; and
 * the sign convention. The mapping is first guessed from the header names and the values (a
 * first date part above 12 is a day), then confirmed by the person once per header layout and
 * remembered (see ../csv-mappings.ts). Quoted fields per RFC 4180. Pure.
 */
import { type Cents, type DecimalMark, detectNumberFormat, parseMoney } from "../../../lib/money";
import { checkBalances } from "./balance";
import { isoDate, parseRowDate } from "./dates";
import type { ParseOutcome, StatementRow } from "./index";
import type { LayoutRow } from "./layout";

export interface CsvMapping {
  date: number;
  description: number;
  /** One signed amount column, or null when withdrawal and deposit columns are used. */
  amount: number | null;
  withdrawal: number | null;
  deposit: number | null;
  balance: number | null;
  date_order: "mdy" | "dmy" | "ymd";
  /** What a negative signed amount means (a card export often shows purchases positive). */
  negative_is: "withdrawal" | "deposit";
}

/** RFC 4180 rows (quotes, doubled quotes, CRLF); the delimiter is the first line's most frequent of , ; tab. */
export function csvRows(text: string): string[][] {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  const delim = [",", ";", "\t"].sort((a, b) => firstLine.split(b).length - firstLine.split(a).length)[0]!;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endRow = () => {
    row.push(field);
    if (row.some((f) => f.trim() !== "")) rows.push(row.map((f) => f.trim()));
    row = [];
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === delim) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRow();
    } else field += c;
  }
  endRow();
  return rows;
}

/** The header row and the rows under it. */
export function csvTable(text: string): { header: string[]; body: string[][] } | null {
  const all = csvRows(text.replace(/^\uFEFF/, ""));
  const at = all.findIndex((r) => r.some((h) => /date/i.test(h)) && r.length >= 3);
  return at < 0 ? null : { header: all[at]!, body: all.slice(at + 1) };
}

const find = (header: string[], re: RegExp) => {
  const i = header.findIndex((h) => re.test(h.toLowerCase()));
  return i < 0 ? null : i;
};

/** A first guess from the header names and the date values. */
export function guessMapping(header: string[], body: string[][]): CsvMapping | null {
  const date = find(header, /(^|\s)(transaction |posted |posting )?date/);
  const amount = find(header, /^(amount|transaction amount|amount \(.*\)|cad\$?|usd\$?)$/);
  const withdrawal = find(header, /withdraw|debit|paid out|money out|funds out/);
  const deposit = find(header, /deposit|credit|paid in|money in|funds in/);
  if (date === null || (amount === null && (withdrawal === null || deposit === null))) return null;
  const dates = body.map((r) => r[date] ?? "");
  const date_order = dates.some((d) => /^\d{4}[-/.]/.test(d))
    ? "ymd"
    : dates.some((d) => /^(1[3-9]|2\d|3[01])[/.-]\d{1,2}/.test(d))
      ? "dmy"
      : "mdy";
  return {
    date,
    description: find(header, /description|payee|merchant|details|narrative|name|memo/) ?? date,
    amount,
    withdrawal: amount === null ? withdrawal : null,
    deposit: amount === null ? deposit : null,
    balance: find(header, /balance/),
    date_order,
    negative_is: "withdrawal",
  };
}

function csvAmount(v: string | undefined, decimal: DecimalMark): Cents | null {
  return v ? parseMoney(v, { decimal }) : null;
}

function csvDate(v: string, order: CsvMapping["date_order"], fallbackYear: number): string | null {
  const n = /^(\d{1,4})[/.-](\d{1,2})(?:[/.-](\d{2,4}))?/.exec(v.trim());
  if (n) {
    const [a, b, c] = [Number(n[1]), Number(n[2]), n[3] ? Number(n[3]) : null];
    const full = (y: number | null) => (y === null ? fallbackYear : y < 100 ? 2000 + y : y);
    const [y, m, d] = order === "ymd" ? [a, b, c] : order === "dmy" ? [full(c), b, a] : [full(c), a, b];
    if (!y || !m || !d || m > 12 || d > 31) return null;
    return isoDate(y, m, d);
  }
  const p = parseRowDate(v);
  return p ? isoDate(p.year ?? fallbackYear, p.month, p.day) : null;
}

export function parseCsv(text: string, fallbackYear: number, given: CsvMapping | null = null): ParseOutcome {
  const table = csvTable(text);
  if (!table)
    return {
      ok: false,
      reason: "not_a_statement",
      message: "No header row with a date column was found in this CSV",
    };
  const map = given ?? guessMapping(table.header, table.body);
  if (!map) {
    return {
      ok: false,
      reason: "not_a_statement",
      message: "The CSV needs a date column and an amount (or withdrawal and deposit) column",
    };
  }
  const rows: StatementRow[] = [];
  const layout: LayoutRow[] = [];
  const mark = (col: number | null) =>
    col === null ? "." : detectNumberFormat(table.body.map((r) => r[col] ?? "")).decimal;
  const [am, wm, dm, bm] = [mark(map.amount), mark(map.withdrawal), mark(map.deposit), mark(map.balance)];
  for (const r of table.body) {
    const date = csvDate(r[map.date] ?? "", map.date_order, fallbackYear);
    if (!date) continue;
    let signed: Cents | null;
    if (map.amount !== null) {
      const a = csvAmount(r[map.amount], am);
      signed = a === null ? null : map.negative_is === "withdrawal" ? a : -a;
    } else {
      const o = csvAmount(r[map.withdrawal ?? -1], wm);
      const n = csvAmount(r[map.deposit ?? -1], dm);
      signed = o ? -Math.abs(o) : n ? Math.abs(n) : null;
    }
    if (signed === null || signed === 0) continue;
    const description = r[map.description] || "Transaction";
    const bal = map.balance !== null ? csvAmount(r[map.balance], bm) : null;
    rows.push({
      date,
      description,
      amount: Math.abs(signed),
      type: signed < 0 ? "withdrawal" : "deposit",
      balance: bal,
    });
    layout.push({
      date: { year: 0, month: 0, day: 0 },
      description,
      withdrawal: signed < 0 ? -signed : null,
      deposit: signed > 0 ? signed : null,
      balance: bal === null ? null : { cents: bal, truncated: false },
    });
  }
  if (rows.length === 0)
    return { ok: false, reason: "not_a_statement", message: "The CSV holds no transaction rows" };
  // Many exports list the newest row first: the balance chain runs oldest first.
  if (rows[0]!.date > rows.at(-1)!.date) {
    rows.reverse();
    layout.reverse();
  }
  const { balances, check } = checkBalances(layout, null, null, { in: null, out: null });
  const sorted = rows.map((r) => r.date).sort();
  return {
    ok: true,
    statement: {
      institution: "Other",
      account_type: "chequing",
      period_start: sorted[0]!,
      period_end: sorted.at(-1)!,
      parsed_with_ai: false,
      rows: rows.map((r, i) => ({ ...r, balance: balances[i] ?? r.balance })),
      balance: check,
      csv: { header: table.header, mapping: map },
    },
  };
}
