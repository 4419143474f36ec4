/**
 * The income statement's one query: ONE scan of the year's rows on the covering index
 * (idx_transactions_month_cover: every column read here is in it), grouped once per kind (income
 * or expense), category and company, and handed over as ONE JSON text with the year's budget
 * targets beside it. At 100,000 transactions a year holds ~9,600 rows in ~3,900 groups: one cell
 * crosses from D1 instead of thousands of rows (moving rows out of D1 costs more than the SQL), and
 * one sort instead of three (per month, per company, then ordered). The months are summed in JS.
 */
import { and, inArray, sql } from "drizzle-orm";
import { categoryKeySql, type Db, inRange, live } from "../../db";
import { cell as decode, col, packedShape } from "../../db/packed";
import { transactions as t } from "../../db/schema";
import { readBudgetDoc } from "../budget/stored";
import { DEPOSIT_TYPES, SPENDING_TYPES } from "../../lib/transaction-types";
import { targetsDataSql } from "../budget/queries";
import type { CompanyGroup } from "./rules";

const isIncome = sql`(${inArray(t.TransactionType, [...DEPOSIT_TYPES])})`;
// Income is reported per company only: its category is one constant group.
const category = sql`CASE WHEN ${isIncome} THEN '' ELSE ${categoryKeySql()} END`;
const merchant = sql`lower(trim(COALESCE(${t.Company}, '')))`;
// Each row as `"MM",cents` (its month as text: the rules skip a month that is not 01..12); a NULL
// amount counts as 0, so a company whose amounts are all NULL still shows, with zeros.
const cell = sql`json_quote(substr(${t.DateFileName}, 6, 2)) || ',' || COALESCE(${t.Amount}, 0)`;

/** One group: income (0/1), category, merchant, latest spelling, its rows as ["MM", cents, ...]. */
const GROUP = packedShape({
  income: col(sql.raw("income"), decode.number),
  category: col(sql.raw("category"), decode.text),
  merchant: col(sql.raw("merchant"), decode.text),
  company: col(sql.raw("company"), decode.textOrNull),
  cells: col(sql`json('[' || cells || ']')`, decode.raw<(string | number)[]>),
});

export function yearStatement(lo: string, hi: string, year: number, userId: string) {
  const rows = and(
    live(),
    inRange(lo, hi),
    inArray(t.TransactionType, [...SPENDING_TYPES, ...DEPOSIT_TYPES]),
  );
  // SQLite: with a single max() (group_concat is not one), the bare Company comes from the row
  // holding it: each group's latest spelling.
  // Plan: SEARCH transactions USING COVERING INDEX idx_transactions_month_cover (asserted in summary.test.ts).
  const groups = sql`(SELECT ${isIncome} AS income, ${category} AS category, ${merchant} AS merchant,
      MAX(${t.DateFileName}), ${t.Company} AS company, group_concat(${cell}) AS cells
    FROM ${t} WHERE ${rows} GROUP BY 1, 2, 3)`;
  return sql`SELECT ${GROUP.packFrom(groups)} AS groups,
      ${targetsDataSql(userId, year)} AS budget`;
}

export async function yearAggregates(db: Db, lo: string, hi: string, year: number, userId: string) {
  const [row] = await db.all<{ groups: string | null; budget: string | null }>(
    yearStatement(lo, hi, year, userId),
  );
  const income: CompanyGroup[] = [];
  const expenses: CompanyGroup[] = [];
  for (const { income: inc, category, merchant, company, cells } of GROUP.decode(row?.groups)) {
    if (inc) income.push({ merchant, company, cells });
    else expenses.push({ merchant, company, cells, category });
  }
  return { income, expenses, budget: readBudgetDoc(row?.budget ?? null) };
}
