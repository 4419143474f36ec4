/**
 * Queries for the income statement, aggregated in SQL (cents), in ONE statement and ONE scan of the
 * year's rows: sums per kind (income or expense), category, company and month, then one row per
 * company with its months as JSON arrays (D1 hands over ~3,900 rows at 100,000 transactions instead
 * of ~8,800), and the year's budget targets as a column (one round trip).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Db, inRange, live, sumAmount } from "../../db";
import { budgetConfig as b, transactions as t } from "../../db/schema";
import { DEPOSIT_TYPES, SPENDING_TYPES } from "../../lib/transaction-types";
import type { AggRow } from "./rules";

const isIncome = sql`(${inArray(t.TransactionType, [...DEPOSIT_TYPES])})`;
// Income is reported per company only: its category is one constant group.
const category = sql`CASE WHEN ${isIncome} THEN '' ELSE lower(COALESCE(NULLIF(trim(${t.Category}), ''), 'uncategorized')) END`;
const merchant = sql`lower(trim(COALESCE(${t.Company}, '')))`;

interface CompanyGroup {
  income: number | null;
  category: string;
  merchant: string;
  yms: string;
  totals: string;
  last_seen: string;
  company: string | null;
  budget: string | null;
}

function statement(lo: string, hi: string, year: number, userId: string) {
  const rows = and(
    live(),
    inRange(lo, hi),
    inArray(t.TransactionType, [...SPENDING_TYPES, ...DEPOSIT_TYPES]),
  );
  const targets = and(eq(b.user_id, userId), eq(b.year, year), eq(b.kind, "targets"));
  // SQLite: with a single max(), a bare column (Company, company) comes from the row holding the max:
  // per month the latest row's spelling, then per company the latest month's.
  return sql`WITH m AS (
      SELECT ${isIncome} AS income, ${category} AS category, ${merchant} AS merchant,
        substr(${t.DateFileName}, 1, 7) AS ym, ${sumAmount()} AS total,
        MAX(${t.DateFileName}) AS last_seen, ${t.Company} AS company
      FROM ${t} WHERE ${rows} GROUP BY 1, 2, 3, 4),
    c AS (
      SELECT income, category, merchant, json_group_array(ym) AS yms, json_group_array(total) AS totals,
        MAX(last_seen) AS last_seen, company
      FROM m GROUP BY income, category, merchant)
    SELECT c.*, (SELECT ${b.data} FROM ${b} WHERE ${targets}) AS budget
    FROM (SELECT 1) LEFT JOIN c ON 1 ORDER BY income, category, merchant`;
}

export async function yearAggregates(db: Db, lo: string, hi: string, year: number, userId: string) {
  const groups = await db.all<CompanyGroup>(statement(lo, hi, year, userId));
  const income: AggRow[] = [];
  const expenses: AggRow[] = [];
  for (const g of groups) {
    if (g.merchant === null) continue; // the LEFT JOIN's row when the year has none
    const into = g.income ? income : expenses;
    const yms = JSON.parse(g.yms) as string[];
    const totals = JSON.parse(g.totals) as number[];
    // The rules take one row per company and month; each carries the company's latest spelling.
    for (let i = 0; i < yms.length; i++) {
      const row: AggRow = {
        merchant: g.merchant,
        company: g.company,
        ym: yms[i]!,
        total: Number(totals[i]),
        last_seen: g.last_seen,
      };
      if (!g.income) row.category = g.category;
      into.push(row);
    }
  }
  let doc: unknown = null;
  try {
    const data = groups[0]?.budget;
    doc = data ? JSON.parse(data) : null;
  } catch {
    doc = null;
  }
  return { income, expenses, budget: doc };
}
