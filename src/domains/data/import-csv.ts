/**
 * A search CSV (GET /api/v1/transactions/export) as an import source: pure parsing (RFC 4180
 * quoting, the export's formula defusing undone) into stored transaction rows, amounts parsed from
 * the printed digits into cents. The CSV carries no UserId; the service fills it in.
 */
import { parseCents } from "../../lib/money";
import { validationError } from "../../lib/errors";
import type { InvalidRow, ParsedBackup, Row } from "./import-rules";

/** CSV header → stored column (the search export's columns). */
const COLUMNS: Record<string, string> = {
  date: "Date",
  date_file_name: "DateFileName",
  company: "Company",
  amount: "Amount",
  category: "Category",
  institution: "Institution",
  transaction_type: "TransactionType",
  name: "Name",
  comment: "Comment",
  ignored: "Ignored",
  deleted_at: "DeletedAt",
  forwarded_to: "ForwardedTo",
};
const REQUIRED = ["date_file_name", "forwarded_to", "amount"];
const MAX_ROWS = 200_000;

/** Splits CSV text into records of cells; quotes may hold commas, quotes ("") and line breaks. */
export function csvRecords(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === "") quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      out.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (quoted) throw bad("The CSV has an unclosed quote");
  if (cell !== "" || row.length) out.push([...row, cell]);
  return out.filter((r) => !(r.length === 1 && r[0] === ""));
}

const bad = (msg: string) => validationError([{ loc: ["body", "file"], msg, type: "value_error" }], msg);

/** The export prefixes formula-looking text with `'`; take it off again. */
const undefuse = (s: string) => (/^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s);

export function parseSearchCsv(text: string): ParsedBackup {
  const records = csvRecords(text.replace(/^\uFEFF/, ""));
  const header = records.shift()?.map((h) => h.trim().toLowerCase());
  if (!header) throw bad("The CSV is empty");
  const missing = REQUIRED.filter((c) => !header.includes(c));
  if (missing.length) throw bad(`The CSV is not a transactions export: no ${missing.join(", ")} column`);
  if (records.length > MAX_ROWS) throw bad(`The CSV has more than ${MAX_ROWS} rows`);
  const rows: Row[] = [];
  const invalid: InvalidRow[] = [];
  for (const rec of records) {
    const raw: Row = {};
    header.forEach((h, i) => {
      if (COLUMNS[h]) raw[COLUMNS[h]] = undefuse(rec[i] ?? "");
    });
    const reason = toRow(raw);
    if (typeof reason === "string") invalid.push({ table: "transactions", row: raw, reason });
    else rows.push(reason);
  }
  return { exportedAt: null, tables: { transactions: rows }, invalid };
}

function toRow(raw: Row): Row | string {
  const text = (k: string) => (typeof raw[k] === "string" && raw[k] !== "" ? (raw[k] as string) : null);
  if (!text("DateFileName")) return "date_file_name is missing";
  if (!text("ForwardedTo")) return "forwarded_to is missing";
  const amount = text("Amount");
  const cents = amount === null ? null : parseCents(amount);
  if (amount !== null && cents === null) return "amount is not a number";
  const ignored = text("Ignored") ?? "0";
  if (ignored !== "0" && ignored !== "1") return "ignored is not 0 or 1";
  const row: Row = { Amount: cents, Ignored: Number(ignored) };
  for (const k of [
    "Date",
    "DateFileName",
    "Company",
    "Category",
    "Institution",
    "TransactionType",
    "Name",
    "Comment",
    "DeletedAt",
    "ForwardedTo",
  ])
    row[k] = text(k);
  // The search CSV shows categories as the list spells them; transactions store them lowercased.
  if (typeof row.Category === "string") row.Category = row.Category.toLowerCase();
  return row;
}
