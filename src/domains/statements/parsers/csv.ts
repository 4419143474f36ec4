/**
 * Bank CSV exports: columns found by their header names (date; description, payee or memo; one
 * signed amount, or withdrawal/debit and deposit/credit columns; an optional balance), the date
 * format by the values themselves (a first part above 12 is a day). Quoted fields per RFC 4180. Pure.
 */
import type { Cents } from "../../../lib/money";
import { checkBalances } from "./balance";
import { isoDate, parseRowDate, type PartialDate } from "./dates";
import type { LayoutRow } from "./layout";
import type { ParseOutcome, StatementRow } from "./index";

/** RFC 4180 rows (quotes, doubled quotes, CRLF); the delimiter is the header's most frequent of , ; tab. */
export function csvRows(text: string): string[][] {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  const delim = [",", ";", "\t"].sort((a, b) => firstLine.split(b).length - firstLine.split(a).length)[0]!;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
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
      row.push(field);
      if (row.some((f) => f.trim() !== "")) rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f.trim() !== "")) rows.push(row);
  return rows.map((r) => r.map((f) => f.trim()));
}

const find = (header: string[], re: RegExp) => header.findIndex((h) => re.test(h));

function csvAmount(v: string | undefined): Cents | null {
  if (!v) return null;
  const t = v.replace(/[$\s]/g, "");
  const m = /^(\()?([+-])?(\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d{1,2}))?\)?(CR|DR)?$/i.exec(t);
  if (!m) return null;
  const cents = Number(m[3]!.replaceAll(",", "")) * 100 + Number((m[4] ?? "").padEnd(2, "0"));
  return m[1] === "(" || m[2] === "-" || /DR/i.test(m[5] ?? "") ? -cents : cents;
}

export function parseCsv(text: string, fallbackYear: number): ParseOutcome {
  const all = csvRows(text.replace(/^\uFEFF/, ""));
  const headerAt = all.findIndex((r) => r.some((h) => /date/i.test(h)) && r.length >= 3);
  if (headerAt < 0) return { ok: false, reason: "not_a_statement", message: "No header row with a date column was found in this CSV" };
  const header = all[headerAt]!.map((h) => h.toLowerCase());
  const col = {
    date: find(header, /(^|\s)(transaction |posted |posting )?date/),
    desc: find(header, /description|payee|merchant|details|narrative|name|memo/),
    amount: find(header, /^(amount|transaction amount|amount \(.*\)|cad\$?|usd\$?)$/),
    out: find(header, /withdraw|debit|paid out|money out|funds out/),
    in: find(header, /deposit|credit|paid in|money in|funds in/),
    balance: find(header, /balance/),
  };
  if (col.date < 0 || (col.amount < 0 && (col.out < 0 || col.in < 0))) {
    return { ok: false, reason: "not_a_statement", message: "The CSV needs a date column and an amount (or withdrawal and deposit) column" };
  }
  const body = all.slice(headerAt + 1);
  const dates = body.map((r) => parseRowDate(r[col.date] ?? ""));
  // A numeric date whose first part never exceeds 12 but whose second does is month/day; the reverse is day/month.
  const dayFirst = body.some((r) => /^(1[3-9]|2\d|3[01])[/-]\d{1,2}/.test(r[col.date] ?? ""));
  const rows: StatementRow[] = [];
  const layout: LayoutRow[] = [];
  body.forEach((r, i) => {
    let d: PartialDate | null = dates[i] ?? null;
    if (!d) return;
    if (dayFirst && /^\d{1,2}[/-]\d{1,2}/.test(r[col.date] ?? "") && d.month !== Number((r[col.date] ?? "").split(/[/-]/)[1])) {
      d = { ...d, month: d.day, day: d.month };
    }
    let signed: Cents | null;
    if (col.amount >= 0) signed = csvAmount(r[col.amount]);
    else {
      const o = csvAmount(r[col.out]);
      const n = csvAmount(r[col.in]);
      signed = o ? -Math.abs(o) : n ? Math.abs(n) : null;
    }
    if (signed === null || signed === 0) return;
    const description = (col.desc >= 0 ? r[col.desc] : "") || "Transaction";
    const bal = col.balance >= 0 ? csvAmount(r[col.balance]) : null;
    rows.push({ date: isoDate(d.year ?? fallbackYear, d.month, d.day), description, amount: Math.abs(signed), type: signed < 0 ? "withdrawal" : "deposit", balance: bal });
    layout.push({ date: d, description, withdrawal: signed < 0 ? -signed : null, deposit: signed > 0 ? signed : null, balance: bal === null ? null : { cents: bal, truncated: false } });
  });
  if (rows.length === 0) return { ok: false, reason: "not_a_statement", message: "The CSV holds no transaction rows" };
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
    },
  };
}
