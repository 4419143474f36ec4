/** Search and CSV export over a month range; aggregates run in SQL, in cents. */
import { categoriesQuery, categoryNames } from "../../categorize/categories";
import { getDb, type Db } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { validationError } from "../../lib/errors";
import { fromCents, fromCentsOrNull, roundCents, toCents, type Cents } from "../../lib/money";
import { addMonths, monthSpan } from "../../lib/month";
import type { z } from "zod";
import type { SearchQuery } from "./schemas";
import { toResponse } from "./rules";
import { compile, CSV_COLUMNS, csvRowsFromJson, csvStatement, searchRows } from "./search-queries";
import { csvCell, type Filter, isNarrow, RESULT_CAP, rangeIssues } from "./search-rules";

/** Where a filter's issues point: the request fields of its start and end months. */
interface FilterLocs {
  from: string[];
  to: string[];
}

const one = (v: string | undefined) => (v ? [v] : null);
/** The API's decimal bounds, in cents. */
export const cents = (v: number | null | undefined) => (v == null ? null : toCents(v));

export const QUERY_LOCS: FilterLocs = { from: ["query", "from"], to: ["query", "to"] };

/** The search's query-string filters (GET /search, the CSV export, the MCP tool) as a Filter. */
export function filterFromQuery(q: z.infer<typeof SearchQuery>): Filter {
  return {
    from: q.from,
    to: q.to,
    q: q.q ?? null,
    companies: one(q.company),
    categories: one(q.category),
    institutions: one(q.institution),
    types: one(q.type),
    minCents: cents(q.min_amount),
    maxCents: cents(q.max_amount),
    includeIgnored: q.include_ignored,
    includeDeleted: q.include_deleted,
  };
}

function checked(f: Filter, locs: FilterLocs): Filter {
  const issues = rangeIssues(f, locs.from, locs.to);
  if (issues.length > 0) throw validationError(issues);
  return f;
}

export async function search(ctx: ServiceCtx, { f, locs }: { f: Filter; locs: FilterLocs }) {
  const { rows, n, totalCents, byCategory } = await searchRows(getDb(ctx.env.DB), compile(checked(f, locs)));
  return {
    transactions: rows.map(toResponse),
    summary: {
      total_count: n,
      total_amount: fromCents(totalCents),
      avg_amount: n ? fromCents(roundCents(totalCents / n)) : 0,
      by_category: Object.fromEntries(byCategory.map((r) => [r.category, fromCents(r.total)])),
      months_queried: monthSpan(f.from, f.to),
    },
    capped: n > RESULT_CAP,
    total_matching: n,
  };
}

/**
 * The rows and the category list in one D1 round trip: one packed statement per month of the range
 * (a statement's parts each under D1's 2,000,000-byte value cap: src/db/packed.ts), in one batch.
 */
async function csvRowsAndCategories(db: Db, f: Filter) {
  const narrow = isNarrow(f);
  const months = Array.from({ length: monthSpan(f.from, f.to) }, (_, i) => addMonths(f.from, i));
  const [list, ...packed] = (await db.batch([
    categoriesQuery(db),
    ...months.map((m) => csvStatement(db, compile({ ...f, from: m, to: m }), narrow)),
  ])) as unknown as [Parameters<typeof categoryNames>[0], ...{ json: string | null }[][]];
  return [packed.flatMap((parts) => csvRowsFromJson(parts)), categoryNames(list)] as const;
}

/** Every matching row (no cap), oldest first, as CSV text (amounts as decimal numbers). */
export async function exportCsv(
  ctx: ServiceCtx,
  { f, locs }: { f: Filter; locs: FilterLocs },
): Promise<string> {
  const [rows, list] = await csvRowsAndCategories(getDb(ctx.env.DB), checked(f, locs));
  // Categories are stored lowercased; the CSV shows them as the category list spells them.
  const display = new Map(list.map((name) => [name.toLowerCase(), name]));
  const names = Object.keys(CSV_COLUMNS) as (keyof typeof CSV_COLUMNS)[];
  const amountAt = names.indexOf("amount");
  const categoryAt = names.indexOf("category");
  // One string appended cell by cell, in column order (no per-row objects or line arrays: 10,000
  // rows a year); empty cells (nulls: most comments, names, deletions) skip the cell formatting.
  let out = `${names.join(",")}\r\n`;
  for (const r of rows) {
    for (let i = 0; i < names.length; i++) {
      const raw = r[i];
      const cell =
        raw === null || raw === undefined
          ? ""
          : csvCell(
              i === amountAt
                ? fromCentsOrNull(raw as Cents)
                : i === categoryAt && typeof raw === "string"
                  ? (display.get(raw.toLowerCase()) ?? raw)
                  : raw,
            );
      out += i ? `,${cell}` : cell;
    }
    out += "\r\n";
  }
  return out;
}
