/** Search and CSV export over a month range; aggregates run in SQL. */
import type { ServiceCtx } from "../../lib/context";
import { monthSpan } from "../../lib/month";
import { toResponse, type TxRow } from "./rules";
import { compile, csvCell, type Filter, RESULT_CAP } from "./search-rules";

type Ctx = Pick<ServiceCtx, "env">;

export async function search(ctx: Ctx, f: Filter) {
  const { where, binds } = compile(f);
  const db = ctx.env.DB;
  const [rows, totals, byCategory] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT t.*, (a.DateFileName IS NOT NULL) AS needs_attention FROM (SELECT * FROM transactions WHERE ${where}) t
         LEFT JOIN attention_queue a ON a.ForwardedTo = t.ForwardedTo AND a.DateFileName = t.DateFileName
         ORDER BY t.DateFileName DESC LIMIT ${RESULT_CAP}`,
      )
      .bind(...binds),
    db
      .prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(Amount), 0) AS total FROM transactions WHERE ${where}`)
      .bind(...binds),
    db
      .prepare(
        `SELECT lower(COALESCE(Category, 'uncategorized')) AS category, SUM(Amount) AS total FROM transactions
         WHERE ${where} GROUP BY 1 ORDER BY total DESC`,
      )
      .bind(...binds),
  ]);
  const n = Number(totals?.results[0]?.n ?? 0);
  const total = Number(totals?.results[0]?.total ?? 0);
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    transactions: ((rows?.results ?? []) as unknown as TxRow[]).map(toResponse),
    summary: {
      total_count: n,
      total_amount: round(total),
      avg_amount: n ? round(total / n) : 0,
      by_category: Object.fromEntries(
        (byCategory?.results ?? []).map((r) => [String(r.category), round(Number(r.total ?? 0))]),
      ),
      months_queried: monthSpan(f.from, f.to),
    },
    capped: n > RESULT_CAP,
    total_matching: n,
  };
}

const CSV_COLUMNS = [
  ["date", "Date"],
  ["date_file_name", "DateFileName"],
  ["company", "Company"],
  ["amount", "Amount"],
  ["category", "Category"],
  ["institution", "Institution"],
  ["transaction_type", "TransactionType"],
  ["name", "Name"],
  ["comment", "Comment"],
  ["ignored", "Ignored"],
  ["deleted_at", "DeletedAt"],
  ["forwarded_to", "ForwardedTo"],
] as const;

/** Every matching row (no cap), oldest first, as CSV text. */
export async function exportCsv(ctx: Ctx, f: Filter): Promise<string> {
  const { where, binds } = compile(f);
  const cols = CSV_COLUMNS.map(([, c]) => c).join(", ");
  const results = await ctx.env.DB.prepare(
    `SELECT ${cols} FROM transactions WHERE ${where} ORDER BY DateFileName`,
  )
    .bind(...binds)
    .raw<unknown[]>();
  const lines = [CSV_COLUMNS.map(([h]) => h).join(",")];
  for (const r of results) lines.push(r.map(csvCell).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
