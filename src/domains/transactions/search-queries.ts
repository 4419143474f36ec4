/** The search's D1 queries (drizzle): the filter as a WHERE condition, rows, summary, CSV rows. */
import { ZERO_CENTS, addCents } from "../../lib/money";
import { and, asc, count, desc, eq, getTableColumns, isNull, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { inRange, sumAmount, type Db } from "../../db";
import { cell, col, type PackedColumn, packedShape } from "../../db/packed";
import { attentionQueue, transactions as t } from "../../db/schema";
import { attentionOn, onQueue } from "./attention-queries";
import { rangeBounds } from "../../lib/month";
import { LISTED, type ListedRow } from "./rules";
import { clean, type Filter, RESULT_CAP } from "./search-rules";

/**
 * Substring tests without LIKE: D1 caps a LIKE pattern at 50 bytes and the inputs allow 200
 * characters. `instr` over lower() matches as LIKE did (ASCII case folded, no wildcards).
 */
const contains = (col: SQL | SQLiteColumn, needle: SQL) => sql`instr(lower(${col}), lower(${needle})) > 0`;
/** The values of a list as ONE bound JSON text: D1 allows 100 bound parameters, the lists 160 values. */
const listed = (values: string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;
/**
 * Category, institution and type are exact, case-insensitive matches against the list. Category
 * with a unary `+`, which keeps SQLite off idx_transactions_category (a category's rows of every
 * year, each read from the table): the month range of the covering index is the cheaper path, the
 * filter tested on index entries (collation unchanged).
 */
const oneOf = (col: SQL | SQLiteColumn, values: string[]) => sql`${col} COLLATE NOCASE IN ${listed(values)}`;

/** Company: substring; category/institution/type: exact; all case-insensitive. Amounts in cents. */
export function compile(f: Filter): SQL {
  const { lo, hi } = rangeBounds(f.from, f.to);
  const parts: (SQL | undefined)[] = [inRange(lo, hi)];
  // One condition per list whatever its length: an OR per value is too deep for SQLite at 45 values.
  const companies = clean(f.companies);
  if (companies.length > 0) {
    parts.push(
      sql`EXISTS (SELECT 1 FROM ${listed(companies)} AS v WHERE ${contains(t.Company, sql`v.value`)})`,
    );
  }
  const exact: [SQL | SQLiteColumn, string[] | null | undefined][] = [
    [sql`+${t.Category}`, f.categories],
    [t.Institution, f.institutions],
    [t.TransactionType, f.types],
  ];
  for (const [column, values] of exact) {
    const list = clean(values);
    if (list.length > 0) parts.push(oneOf(column, list));
  }
  const q = f.q?.trim();
  if (q) {
    const cols = [t.Company, t.Category, t.Comment, t.Institution];
    parts.push(or(...cols.map((c) => contains(c, sql`${q}`))));
  }
  if (f.minCents != null) parts.push(sql`${t.Amount} >= ${f.minCents}`);
  if (f.maxCents != null) parts.push(sql`${t.Amount} <= ${f.maxCents}`);
  if (!f.includeIgnored) parts.push(eq(t.Ignored, 0));
  if (!f.includeDeleted) parts.push(isNull(t.DeletedAt));
  return and(...parts)!;
}

/**
 * The matching rows' ids (rowid). The filter's usual columns (range, company, category, type,
 * amount, ignored, deleted) are all in idx_transactions_month_cover, so SQLite tests them on index
 * entries and reads from the table only the rows that match, not every row of the months.
 */
const matchingIds = (db: Db, where: SQL) =>
  db
    .select({ id: sql`${t}.rowid` })
    .from(t)
    .where(where)
    .$dynamic();

/** The listed columns (not the email text) in LISTED order, then the attention flag (needs the join). */
const COLUMNS = getTableColumns(t);
export const LISTED_ROW = packedShape({
  ...(Object.fromEntries(LISTED.map((k) => [k, col(COLUMNS[k], cell.raw)])) as {
    [K in (typeof LISTED)[number]]: PackedColumn<ListedRow[K]>;
  }),
  needs_attention: col(onQueue(), cell.raw<number>),
});

/**
 * The newest RESULT_CAP matches as ONE JSON text: an array per row (LISTED_ROW: the listed
 * columns, then the attention flag), newest first. D1 hands 1,000 rows of 17 cells over as one
 * value, much cheaper than 17,000 cells; rowsFromJson unpacks them.
 * Plan: the ids from SEARCH transactions USING COVERING INDEX idx_transactions_month_cover, never
 * idx_transactions_category nor a SCAN (asserted in search-plans.test.ts).
 */
function newestPacked(db: Db, where: SQL) {
  const newest = matchingIds(db, where).orderBy(desc(t.DateFileName)).limit(RESULT_CAP);
  const rows = db
    .select({ j: LISTED_ROW.row() })
    .from(t)
    .leftJoin(attentionQueue, attentionOn())
    .where(sql`${t}.rowid IN ${newest}`)
    .orderBy(desc(t.DateFileName))
    .as("r");
  return LISTED_ROW.pack(db, rows);
}

/** The packed rows as row objects (keys from the schema), newest first. */
export function rowsFromJson(parts: readonly { json: string | null }[]): ListedRow[] {
  const rows: ListedRow[] = LISTED_ROW.decodeParts(parts);
  // The concatenation follows the ordered subquery; the sort (stable) makes that order explicit.
  return rows.sort((a, b) =>
    a.DateFileName < b.DateFileName ? 1 : a.DateFileName > b.DateFileName ? -1 : 0,
  );
}

/** The search's two statements: the newest RESULT_CAP rows (packed), and the by-category groups. */
export function searchStatements(db: Db, where: SQL) {
  const category = sql<string>`lower(COALESCE(${t.Category}, 'uncategorized'))`;
  return [
    newestPacked(db, where),
    db
      .select({ category, n: count(), total: sumAmount() })
      .from(t)
      .where(where)
      .groupBy(category)
      .orderBy(desc(sumAmount())),
  ] as const;
}

/**
 * The newest RESULT_CAP matching rows, the count and total, and totals by category (cents). Two
 * statements in one round trip: the count and total are the sums of the by-category groups, so the
 * filter (often a LIKE scan over months of rows) runs once for the aggregates instead of twice.
 */
export async function searchRows(db: Db, where: SQL) {
  const [packed, groups] = await db.batch(searchStatements(db, where));
  const rows = rowsFromJson(packed);
  let n = 0;
  let totalCents = ZERO_CENTS;
  for (const g of groups) {
    n += g.n;
    totalCents = addCents(totalCents, g.total);
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

const DFN_AT = Object.keys(CSV_COLUMNS).indexOf("date_file_name");

/** csvStatement's packed text as row arrays, oldest first. */
export function csvRowsFromJson(parts: readonly { json: string | null }[]): unknown[][] {
  // The concatenation follows the ordered subquery; the sort (linear on sorted input) makes it explicit.
  const key = (r: unknown[]) => r[DFN_AT] as string;
  return parts
    .flatMap((p) => CSV_ROW.arrays(p.json))
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** The CSV row: CSV_COLUMNS in file order (cells written as stored). */
const CSV_ROW = packedShape(
  Object.fromEntries(Object.entries(CSV_COLUMNS).map(([k, c]) => [k, col(c, cell.raw)])),
);

/**
 * The export's one statement: the rows as JSON arrays, oldest first, concatenated. `narrow` (a
 * filter beyond the range and the ignored/deleted flags): the ids come first from the covering
 * index (matchingIds), so only matching rows are read. Otherwise nearly every row of the range
 * matches, and walking idx_transactions_month reads them in date order with no sort.
 * Plan: COVERING INDEX idx_transactions_month_cover either way, no TEMP B-TREE for the whole range
 * (asserted in search-plans.test.ts).
 */
export function csvStatement(db: Db, where: SQL, narrow: boolean) {
  const rows = db
    .select({ j: CSV_ROW.row() })
    .from(t)
    .where(narrow ? sql`${t}.rowid IN ${matchingIds(db, where)}` : where)
    .orderBy(asc(t.DateFileName))
    .as("r");
  return CSV_ROW.pack(db, rows);
}
