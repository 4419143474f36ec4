/** Search and CSV export over a month range; aggregates run in SQL, in cents. */
import type { ServiceCtx } from "../../lib/context";
import { validationError } from "../../lib/errors";
import { fromCents, fromCentsOrNull, roundCents } from "../../lib/money";
import { monthSpan } from "../../lib/month";
import { toResponse } from "./rules";
import { compile, CSV_COLUMNS, csvRows, searchRows } from "./search-queries";
import { csvCell, type Filter, RESULT_CAP, rangeIssues } from "./search-rules";

type Ctx = Pick<ServiceCtx, "env">;

/** Where a filter's issues point: the request fields of its start and end months. */
export interface FilterLocs {
  from: string[];
  to: string[];
}

function checked(f: Filter, locs: FilterLocs): Filter {
  const issues = rangeIssues(f, locs.from, locs.to);
  if (issues.length > 0) throw validationError(issues);
  return f;
}

export async function search(ctx: Ctx, f: Filter, locs: FilterLocs) {
  const { rows, n, totalCents, byCategory } = await searchRows(ctx.env.DB, compile(checked(f, locs)));
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

/** Every matching row (no cap), oldest first, as CSV text (amounts as decimal numbers). */
export async function exportCsv(ctx: Ctx, f: Filter, locs: FilterLocs): Promise<string> {
  const rows = await csvRows(ctx.env.DB, compile(checked(f, locs)));
  const lines = [Object.keys(CSV_COLUMNS).join(",")];
  for (const r of rows) {
    const cells = Object.values({ ...r, amount: fromCentsOrNull(r.amount) });
    lines.push(cells.map(csvCell).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}
