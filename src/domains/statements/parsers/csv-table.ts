/**
 * A CSV file's table: the delimiter (`,` `;` tab `|`, the one that splits the first lines into the
 * same number of fields most consistently), RFC 4180 records (quotes, doubled quotes, CRLF, LF or
 * a lone CR), and the header row (the first row naming a date and an amount, else the first row as
 * wide as the rows under it: a bank's preamble lines above the table are skipped). Pure.
 */
import { roleScore } from "./csv-words";

const DELIMITERS = [",", ";", "\t", "|"] as const;

/** Records of `text` split on `delim` (at most `limit` records). */
export function csvRecords(text: string, delim: string, limit = Number.POSITIVE_INFINITY): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let fieldStart = true;
  const endRow = () => {
    row.push(field);
    if (row.some((f) => f.trim() !== "")) rows.push(row.map((f) => f.trim()));
    row = [];
    field = "";
    fieldStart = true;
  };
  for (let i = 0; i < text.length && rows.length < limit; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && (fieldStart || field.trim() === "")) {
      quoted = true;
      field = "";
      fieldStart = false;
    } else if (c === delim) {
      row.push(field);
      field = "";
      fieldStart = true;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRow();
    } else {
      field += c;
      fieldStart = false;
    }
  }
  if (field !== "" || row.length) endRow();
  return rows;
}

/** The delimiter that gives the first lines the most consistent width above one field. */
export function detectDelimiter(text: string): string {
  const head = text.slice(0, 20_000);
  let best: string = ",";
  let bestScore = -1;
  for (const d of DELIMITERS) {
    const widths = csvRecords(head, d, 30).map((r) => r.length);
    if (widths.length === 0) continue;
    const counts = new Map<number, number>();
    for (const w of widths) counts.set(w, (counts.get(w) ?? 0) + 1);
    const [mode, n] = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]!;
    if (mode < 2) continue;
    const score = (n / widths.length) * 100 + Math.min(mode, 30);
    if (score > bestScore) [best, bestScore] = [d, score];
  }
  return best;
}

export interface CsvTable {
  header: string[];
  body: string[][];
  delimiter: string;
  /** True when a header row naming a date and an amount was found. */
  named: boolean;
}

const names = (row: string[], roles: ("date" | "amount" | "withdrawal" | "deposit")[]) =>
  roles.some((role) => row.some((cell) => roleScore(cell, role) > 0));

/** The header row and the rows under it; null for a file with no rows at all. */
export function csvTable(text: string): CsvTable | null {
  const clean = text.replace(/^\uFEFF/, "");
  const delimiter = detectDelimiter(clean);
  const all = csvRecords(clean, delimiter);
  if (all.length === 0) return null;
  const scan = all.slice(0, 40);
  const at = scan.findIndex((r) => names(r, ["date"]) && names(r, ["amount", "withdrawal", "deposit"]));
  if (at >= 0) return { header: all[at]!, body: all.slice(at + 1), delimiter, named: true };
  // No named header: the first row as wide as most rows (preamble lines are narrower).
  const widths = new Map<number, number>();
  for (const r of scan) widths.set(r.length, (widths.get(r.length) ?? 0) + 1);
  const mode = [...widths.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  const first = Math.max(
    0,
    all.findIndex((r) => r.length >= mode),
  );
  return { header: all[first]!, body: all.slice(first + 1), delimiter, named: false };
}
