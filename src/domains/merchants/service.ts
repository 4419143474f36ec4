/** Merchant intelligence: SQL aggregates per merchant and month, pure rules, a 1-hour cache in kv_state. */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { localToday } from "../../lib/local-time";
import { log } from "../../lib/log";
import { addMonths, monthBounds, rangeBounds } from "../../lib/month";
import { getConfig } from "../config/service";
import { freshCacheSql, merchantAggregatesPart, readCachePart, writeCache } from "./queries";
import { intelligenceOut } from "./response";
import { analyze, buildSeries } from "./rules";
import type { MerchantIntelligenceResponse } from "./schemas";

export const CACHE_TTL_MS = 60 * 60 * 1000;

export interface IntelligenceInput {
  month?: string | undefined;
  months: number;
}

/**
 * The window `months` long ending at `month` (default: the current month in the configured
 * timezone): ONE batch reads the cache row and computes the window unless that row is fresh (the
 * compute is guarded in SQL, so a hit scans nothing).
 */
export async function getMerchantIntelligence(
  ctx: ServiceCtx,
  input: IntelligenceInput,
): Promise<MerchantIntelligenceResponse> {
  const part = await intelligencePart(ctx, input);
  return part.read(await getDb(ctx.env.DB).batch(part.queries));
}

/**
 * The intelligence as a part for a caller's batch: `queries` (the cache row, the window guarded by
 * that row's freshness: the one freshness rule, in SQL) and `read` giving the cached answer when
 * the guard skipped the compute, else the computed one (its cache write begun in waitUntil). A
 * fresh row whose value is not in shape is computed on its own: one more round trip.
 */
export async function intelligencePart(ctx: ServiceCtx, input: IntelligenceInput) {
  const now = ctx.clock();
  const nowIso = now.toISOString();
  const local = localToday(now, (await getConfig(ctx)).timezone);
  const month = input.month ?? local.month;
  const count = input.months;
  const key = `merchant_intelligence:${month}:${count}` as const;
  const db = getDb(ctx.env.DB);
  const cache = readCachePart(db, key);
  const w = windowOf(month, count);
  const agg = merchantAggregatesPart(db, w, freshCacheSql(key, nowIso, CACHE_TTL_MS));
  const today = `${local.month}-${String(local.day).padStart(2, "0")}`;
  const store = async (result: MerchantIntelligenceResponse) => {
    // The write is not part of the answer: a request's response does not wait for it (a request
    // that arrives before it lands computes the window again, which is all a miss costs). In
    // waitUntil it begins after a macrotask, once the response is on its way: workerd never held
    // the response for it (merchants.test.ts holds the write and gets the answer), and begun
    // after, the round-trip counters see it as the background work it is.
    const later = new Promise((resolve) => setTimeout(resolve, 0));
    ctx.waitUntil(
      later
        .then(() => writeCache(db, key, result, nowIso))
        .catch((err) => log("warn", "merchants.cache_write_failed", { error: String(err) })),
    );
    return result;
  };
  const answer = (aggregates: Aggregates) => store(analyzeWindow(month, count, today, aggregates));
  const compute = async () => {
    const plain = merchantAggregatesPart(db, w);
    return answer(plain.read(await plain.query)!);
  };
  const read = async (rows: readonly unknown[]): Promise<MerchantIntelligenceResponse> => {
    const [cacheRows, windowRows] = rows as [
      Parameters<typeof cache.read>[0],
      Parameters<typeof agg.read>[0],
    ];
    const computed = agg.read(windowRows);
    if (computed) return answer(computed);
    return cache.read(cacheRows)?.value ?? compute();
  };
  return { queries: [cache.query, agg.query] as const, read };
}

type Aggregates = NonNullable<ReturnType<ReturnType<typeof merchantAggregatesPart>["read"]>>;

function windowOf(month: string, count: number) {
  const from = addMonths(month, -(count - 1));
  const months = Array.from({ length: count }, (_, i) => addMonths(from, i));
  const { lo, hi } = rangeBounds(from, month);
  return { from, months, lo, hi, lastLo: monthBounds(month).lo };
}

function analyzeWindow(
  month: string,
  count: number,
  today: string,
  agg: Aggregates,
): MerchantIntelligenceResponse {
  const { from, months } = windowOf(month, count);
  // Seen from the window's last day, or from today when the window reaches it (a monthly charge
  // due later this month is not overdue yet).
  const lastDay = Date.parse(`${addMonths(month, 1)}-01T00:00:00Z`) / 86_400_000 - 1;
  const asOfDay = Math.min(lastDay, Date.parse(`${today}T00:00:00Z`) / 86_400_000);
  const { merchants, summary } = intelligenceOut(
    analyze(buildSeries(agg.monthly, agg.names, months, agg.charges), months, agg.lastMonthTotal, asOfDay),
  );
  return { month, months_analyzed: count, period: { from, to: month }, merchants, summary };
}
