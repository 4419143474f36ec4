/** The search's D1 queries (drizzle): the filter as a WHERE condition, rows, summary, CSV rows. */
import { and, asc, count, desc, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { getDb, inRange, sumAmount } from "../../db";
import { transactions as t } from "../../db/schema";
import { rangeBounds } from "../../lib/month";
import { selectWithAttention } from "./queries";
import { clean, containsPattern, type Filter, RESULT_CAP } from "./search-rules";

const like = (col: SQLiteColumn, pattern: string) => sql`${col} LIKE ${pattern} ESCAPE '\\'`;
const sameText = (col: SQLiteColumn, value: string) => sql`${col} = ${value} COLLATE NOCASE`;

/** Company: substring; category/institution/type: exact; all case-insensitive. Amounts in cents. */
export function compile(f: Filter): SQL {
  const { lo, hi } = rangeBounds(f.from, f.to);
  const parts: (SQL | undefined)[] = [inRange(lo, hi)];
  const anyOf = (values: string[], one: (v: string) => SQL) => {
    if (values.length > 0) parts.push(or(...values.map(one)));
  };
  anyOf(clean(f.companies), (v) => like(t.Company, containsPattern(v)));
  anyOf(clean(f.categories), (v) => sameText(t.Category, v));
  anyOf(clean(f.institutions), (v) => sameText(t.Institution, v));
  anyOf(clean(f.types), (v) => sameText(t.TransactionType, v));
  const q = f.q?.trim();
  if (q) {
    const p = containsPattern(q);
    parts.push(or(like(t.Company, p), like(t.Category, p), like(t.Comment, p), like(t.Institution, p)));
  }
  if (f.minCents != null) parts.push(sql`${t.Amount} >= ${f.minCents}`);
  if (f.maxCents != null) parts.push(sql`${t.Amount} <= ${f.maxCents}`);
  if (!f.includeIgnored) parts.push(eq(t.Ignored, 0));
  if (!f.includeDeleted) parts.push(isNull(t.DeletedAt));
  return and(...parts)!;
}

/**
 * The newest RESULT_CAP matching rows, the count and total, and totals by category (cents). Two
 * statements in one round trip: the count and total are the sums of the by-category groups, so the
 * filter (often a LIKE scan over months of rows) runs once for the aggregates instead of twice.
 */
export async function searchRows(d1: D1Database, where: SQL) {
  const db = getDb(d1);
  const category = sql<string>`lower(COALESCE(${t.Category}, 'uncategorized'))`;
  const [rows, groups] = await db.batch([
    selectWithAttention(d1, where).orderBy(desc(t.DateFileName)).limit(RESULT_CAP),
    db
      .select({ category, n: count(), total: sumAmount() })
      .from(t)
      .where(where)
      .groupBy(category)
      .orderBy(desc(sumAmount())),
  ]);
  let n = 0;
  let totalCents = 0;
  for (const g of groups) {
    n += g.n;
    totalCents += g.total;
  }
  const byCategory = groups.map((g) => ({ category: g.category, total: g.total }));
  return { rows, n, totalCents, byCategory };
}

/** CSV columns: header → stored column, in file order. */
export const CSV_COLUMNS = {
  date: t.Date,
  date_file_name: t.DateFileName,
  company: t.Company,
  amount: t.Amount,
  category: t.Category,
  institution: t.Institution,
  transaction_type: t.TransactionType,
  name: t.Name,
  comment: t.Comment,
  ignored: t.Ignored,
  deleted_at: t.DeletedAt,
  forwarded_to: t.ForwardedTo,
};

/**
 * Every matching row (no cap), oldest first, as arrays in CSV_COLUMNS order: a year is ~10,000
 * rows, and raw value arrays skip building an object per row.
 */
export function csvRows(d1: D1Database, where: SQL): Promise<unknown[][]> {
  return getDb(d1).select(CSV_COLUMNS).from(t).where(where).orderBy(asc(t.DateFileName)).values();
}
