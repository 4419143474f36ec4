/**
 * Queries for merchant intelligence: per-merchant monthly aggregates (cents, over the month-range
 * index) and the 1-hour cache row in kv_state.
 */
import { asCents } from "../../lib/money";
import { and, sql } from "drizzle-orm";
import { categoryKeySql, type Db, inRange, live, spending, sumAmount } from "../../db";
import { kvGet, kvPut } from "../../db/kv";
import { cell, col, packedShape } from "../../db/packed";
import { transactions as t } from "../../db/schema";
import { MerchantIntelligenceResponse } from "./schemas";
import { storedJson } from "../../db/json";
import { type Charge, cadenceDayCap, type MerchantSeries } from "./rules";

const merchant = sql`lower(trim(${t.Company}))`;
const category = categoryKeySql();
const spend = (lo: string, hi: string) => and(live(), spending(), inRange(lo, hi));
const named = (lo: string, hi: string) =>
  and(spend(lo, hi), sql`${t.Company} IS NOT NULL AND trim(${t.Company}) <> ''`);

/** A window of months: its bounds, the last month's first day, and the months (YYYY-MM). */
interface MonthWindow {
  lo: string;
  hi: string;
  lastLo: string;
  months: string[];
}

/**
 * ONE scan of the window: per merchant and category, the count, latest row and per-month sums and
 * counts (columns), then per merchant the month columns summed, the most used category (ties: the
 * most recent) and the latest spelling. Each pick is the MAX of a sortable key with the value after
 * char(1) (`n` zero-padded, then DateFileName). Months are 'YYYY-MM', oldest first.
 * Plan: SEARCH transactions USING COVERING INDEX idx_transactions_month_cover, no SCAN (asserted in
 * summary.test.ts).
 */
export function windowQuery({ lo, hi, lastLo, months }: MonthWindow) {
  // k: the row's month as DateFileName spells it ('YYYY.MM'); the columns compare it per month.
  const k = sql`substr(${t.DateFileName}, 1, 7)`;
  // Each month's key is written into the SQL (checked digits, not bound): 24 months bound twice
  // each took 48 of D1's 100 parameters.
  const inner = sql.raw(
    months
      .map((ym, i) => {
        const key = monthKey(ym);
        return `SUM(CASE WHEN k = '${key}' THEN Amount ELSE 0 END) AS a${i}, SUM(k = '${key}') AS c${i}`;
      })
      .join(", "),
  );
  const outer = sql.raw(
    months.map((_, i) => `COALESCE(SUM(a${i}), 0) AS a${i}, SUM(c${i}) AS c${i}`).join(", "),
  );
  // The months as ONE text 'a0 c0,a1 c1,…' joined with || (an operator): a function such as
  // json_array takes at most 32 arguments on D1, and a column per month made 2 × months + 5.
  // Joined as a balanced tree: a chain of || is one expression level per operator (SQLite stops at 100).
  const cols = sql.raw(
    `${joinText(months.map((_, i) => `(COALESCE(a${i}, 0) || ' ' || COALESCE(c${i}, 0))`))} AS m`,
  );
  const row = windowRow();
  // A merchant charged on more days than any cadence allows keeps none: its charges stay unread
  // (at a large journal they would pass D1's 2 MB value cap), '' as for no charges.
  const cap = cadenceDayCap(months.length);
  // SQLite inlines r's expressions into every month column, so k is a plain substr (compared
  // with each month's text), not date arithmetic evaluated twice per month per row.
  return sql`WITH r AS (
      SELECT ${merchant} AS merchant, ${category} AS category, ${t.DateFileName} AS dfn,
        ${t.Company} AS Company, ${t.Amount} AS Amount, ${k} AS k
      FROM ${t} WHERE ${named(lo, hi)}),
    g AS (
      SELECT merchant, category, COUNT(*) AS n, MAX(dfn) AS last_seen, trim(Company) AS company, ${inner},
        CASE WHEN COUNT(DISTINCT substr(dfn, 1, 10)) > ${sql.raw(String(cap))} THEN NULL
          ELSE group_concat(substr(dfn, 1, 10) || ' ' || Amount, ',') END AS ch
      FROM r GROUP BY merchant, category),
    p AS (
      SELECT merchant, MAX(printf('%012d', n) || last_seen || char(1) || category) AS cat,
        MAX(last_seen || char(1) || company) AS name, ${outer},
        CASE WHEN COUNT(ch) < COUNT(*) THEN '' ELSE group_concat(ch, ',') END AS ch
      FROM g GROUP BY merchant)
    SELECT ${row.packFrom(sql`(
      SELECT merchant, substr(cat, instr(cat, char(1)) + 1) AS category,
        substr(name, instr(name, char(1)) + 1) AS company, ch, ${cols},
        (SELECT ${sumAmount()} FROM ${t} WHERE ${spend(lastLo, hi)}) AS last_total
      FROM (SELECT 1) LEFT JOIN p ON 1 ORDER BY merchant)`)} AS json`;
}

/** SQL texts joined with ',' between them, nested in halves (depth log2 n, not n). */
function joinText(parts: string[]): string {
  if (parts.length <= 2) return parts.join(" || ',' || ");
  const half = Math.ceil(parts.length / 2);
  return `(${joinText(parts.slice(0, half))} || ',' || ${joinText(parts.slice(half))})`;
}

/** 'YYYY-MM' → 'YYYY.MM' (as DateFileName starts), refused unless it is exactly that. */
function monthKey(ym: string): string {
  if (!/^\d{4}-\d{2}$/.test(ym)) throw new Error(`not a month: ${ym}`);
  return ym.replace("-", ".");
}

/**
 * One merchant of the window: its name, category and spelling, its charges ('YYYY.MM.DD cents,…'),
 * its months ('cents count,…', oldest first), and the last month's total of every spending row.
 */
function windowRow() {
  return packedShape({
    merchant: col(sql.raw("merchant"), cell.textOrNull),
    category: col(sql.raw("category"), cell.text),
    company: col(sql.raw("company"), cell.text),
    ch: col(sql.raw("ch"), cell.text),
    m: col(sql.raw("m"), cell.text),
    last_total: col(sql.raw("last_total"), cell.number),
  });
}

/**
 * Monthly totals and counts per merchant, the merchants' spellings and categories, and the last
 * month's total (cents). One statement and one value: the rows as ONE JSON text of arrays
 * (merchant, category, company, charges, the months as one text 'cents count,…', then the last
 * month's total: every spending row, named or not); the LEFT JOIN keeps one row when no merchant
 * matched.
 */
export async function merchantAggregates(db: Db, w: MonthWindow) {
  const [packed] = await db.select({ json: sql<string>`(${windowQuery(w)})` }).from(sql`(SELECT 1)`);
  return aggregatesOf(windowRow().decode(packed!.json), w.months);
}

/** One series per merchant (the SQL picked its category and spelling), and the last month's total. */
function aggregatesOf(rows: ReturnType<ReturnType<typeof windowRow>["decode"]>, months: string[]) {
  const series: MerchantSeries[] = [];
  for (const r of rows) {
    if (r.merchant === null) continue;
    const cells = r.m.split(",").map((c) => c.split(" "));
    series.push({
      company: r.company,
      category: r.category,
      amounts: months.map((_, i) => asCents(Number(cells[i]?.[0] ?? 0))),
      counts: months.map((_, i) => Number(cells[i]?.[1] ?? 0)),
      charges: parseCharges(r.ch),
    });
  }
  return { series, lastMonthTotal: asCents(rows[0]?.last_total ?? 0) };
}

/** 'YYYY.MM.DD cents,…' (any order) → charges by day number, oldest first. */
function parseCharges(packed: string): Charge[] {
  if (!packed) return [];
  const out: Charge[] = [];
  for (const item of packed.split(",")) {
    const [d, cents] = item.split(" ");
    if (!d || cents === undefined) continue;
    const day =
      Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10))) / 86_400_000;
    if (Number.isFinite(day)) out.push({ day, cents: asCents(Number(cents)) });
  }
  return out.sort((a, b) => a.day - b.day);
}

type CacheKey = `merchant_intelligence:${string}`;

const cacheValue = storedJson("kv_state[merchant_intelligence:]", MerchantIntelligenceResponse.nullable(), {
  value: () => null,
});

/** The cache row (a stored answer not in its shape reads as absent). */
export async function readCache(db: Db, key: CacheKey) {
  const row = await kvGet(db, key);
  const value = row && cacheValue(row.value);
  return row && value ? { value, updated_at: row.updated_at } : null;
}

export async function writeCache(db: Db, key: CacheKey, value: MerchantIntelligenceResponse, nowIso: string) {
  await kvPut(db, key, value, nowIso);
}
