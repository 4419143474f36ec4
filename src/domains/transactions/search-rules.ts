/** Search filters (pure): one Filter type for the GET and POST routes, compiled to SQL. */
import { validationError } from "../../lib/errors";
import { monthSpan, rangeBounds } from "../../lib/month";

export const MAX_MONTHS = 24;
export const RESULT_CAP = 1000;

export interface Filter {
  from: string;
  to: string;
  q?: string | null;
  companies?: string[] | null;
  categories?: string[] | null;
  institutions?: string[] | null;
  types?: string[] | null;
  minAmount?: number | null;
  maxAmount?: number | null;
  includeIgnored?: boolean;
  includeDeleted?: boolean;
}

const clean = (xs: string[] | null | undefined) =>
  (xs ?? []).map((x) => x.trim()).filter((x) => x.length > 0);
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

export function checkRange(f: Filter, fromLoc: string[], toLoc: string[]): void {
  const span = monthSpan(f.from, f.to);
  if (span < 1)
    throw validationError([
      { loc: toLoc, msg: "must be the same as or after the start month", type: "value_error" },
    ]);
  if (span > MAX_MONTHS) {
    throw validationError([
      { loc: toLoc, msg: `range is capped at ${MAX_MONTHS} months`, type: "value_error" },
    ]);
  }
  if (f.minAmount != null && f.maxAmount != null && f.minAmount > f.maxAmount) {
    throw validationError([
      { loc: [fromLoc[0] ?? "query", "max_amount"], msg: "must be at least min_amount", type: "value_error" },
    ]);
  }
}

/** WHERE clause and its bindings. Company: substring; category/institution/type: exact; all case-insensitive. */
export function compile(f: Filter): { where: string; binds: (string | number)[] } {
  const { lo, hi } = rangeBounds(f.from, f.to);
  const parts = ["DateFileName >= ?", "DateFileName < ?"];
  const binds: (string | number)[] = [lo, hi];
  const anyOf = (column: string, values: string[], op: "like" | "eq") => {
    if (values.length === 0) return;
    const one = op === "like" ? `${column} LIKE ? ESCAPE '\\'` : `${column} = ? COLLATE NOCASE`;
    parts.push(`(${values.map(() => one).join(" OR ")})`);
    for (const v of values) binds.push(op === "like" ? `%${likeEscape(v)}%` : v);
  };
  anyOf("Company", clean(f.companies), "like");
  anyOf("Category", clean(f.categories), "eq");
  anyOf("Institution", clean(f.institutions), "eq");
  anyOf("TransactionType", clean(f.types), "eq");
  const q = f.q?.trim();
  if (q) {
    parts.push(
      "(Company LIKE ?1q ESCAPE '\\' OR Category LIKE ?1q ESCAPE '\\' OR Comment LIKE ?1q ESCAPE '\\' OR Institution LIKE ?1q ESCAPE '\\')",
    );
  }
  if (f.minAmount != null) {
    parts.push("Amount >= ?");
    binds.push(f.minAmount);
  }
  if (f.maxAmount != null) {
    parts.push("Amount <= ?");
    binds.push(f.maxAmount);
  }
  if (!f.includeIgnored) parts.push("Ignored = 0");
  if (!f.includeDeleted) parts.push("DeletedAt IS NULL");
  let where = parts.join(" AND ");
  if (q) {
    // The free-text term is used four times: bind it four times, positionally.
    where = where.replaceAll("?1q", "?");
    const pattern = `%${likeEscape(q)}%`;
    const at = parts.findIndex((p) => p.includes("?1q"));
    const before = parts.slice(0, at).reduce((n, p) => n + (p.match(/\?/g)?.length ?? 0), 0);
    binds.splice(before, 0, pattern, pattern, pattern, pattern);
  }
  return { where, binds };
}

/** CSV cell: quoted when needed; formula-looking text is defused for spreadsheet apps. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  let s = typeof v === "number" ? String(v) : String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
