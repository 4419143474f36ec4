/** Merchant intelligence: SQL aggregates per merchant and month, pure rules, a 1-hour cache in kv_state. */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { localToday } from "../../lib/local-time";
import { log } from "../../lib/log";
import { addMonths, monthBounds, rangeBounds } from "../../lib/month";
import { getConfig } from "../config/service";
import { merchantAggregates, readCache, readCachePart, writeCache } from "./queries";
import { intelligenceOut } from "./response";
import { analyze, buildSeries } from "./rules";
import type { MerchantIntelligenceResponse } from "./schemas";

export const CACHE_TTL_MS = 60 * 60 * 1000;

/** `waitUntil` (a request's): the cache row is written after the response; without it, awaited. */
type Ctx = Pick<ServiceCtx, "env" | "clock"> & Partial<Pick<ServiceCtx, "waitUntil">>;

export interface IntelligenceInput {
  month?: string | undefined;
  months: number;
  /** The caller read the cache in its own batch (cachedIntelligencePart) and found no fresh row. */
  missed?: boolean;
}

/** The window `months` long ending at `month` (default: the current month in the configured timezone). */
export async function getMerchantIntelligence(
  ctx: Ctx,
  input: IntelligenceInput,
): Promise<MerchantIntelligenceResponse> {
  const now = ctx.clock();
  const local = localToday(now, (await getConfig(ctx)).timezone);
  const month = input.month ?? local.month;
  const key = `merchant_intelligence:${month}:${input.months}` as const;
  const db = getDb(ctx.env.DB);
  const cached = input.missed ? null : await readCache(db, key);
  if (cached) {
    const age = now.getTime() - Date.parse(cached.updated_at);
    if (age >= 0 && age < CACHE_TTL_MS) return cached.value;
  }
  const today = `${local.month}-${String(local.day).padStart(2, "0")}`;
  const result = await compute(ctx, month, input.months, today);
  // The write is not part of the answer: a request's response need not wait for it (a request
  // that arrives before it lands computes the window again, which is all a miss costs).
  const write = writeCache(db, key, result, now.toISOString());
  if (ctx.waitUntil)
    ctx.waitUntil(write.catch((err) => log("warn", "merchants.cache_write_failed", { error: String(err) })));
  else await write;
  return result;
}

/**
 * The cached intelligence as a part for a caller's batch: its one query, and `read` giving the
 * cached answer while fresh, else null (the caller then calls getMerchantIntelligence).
 */
export async function cachedIntelligencePart(ctx: Ctx, input: IntelligenceInput) {
  const now = ctx.clock();
  const local = localToday(now, (await getConfig(ctx)).timezone);
  const month = input.month ?? local.month;
  const key = `merchant_intelligence:${month}:${input.months}` as const;
  const part = readCachePart(getDb(ctx.env.DB), key);
  const read = (rows: unknown): MerchantIntelligenceResponse | null => {
    const cached = part.read(rows as Parameters<typeof part.read>[0]);
    if (!cached) return null;
    const age = now.getTime() - Date.parse(cached.updated_at);
    return age >= 0 && age < CACHE_TTL_MS ? cached.value : null;
  };
  return { query: part.query, read };
}

async function compute(
  ctx: Ctx,
  month: string,
  count: number,
  today: string,
): Promise<MerchantIntelligenceResponse> {
  const from = addMonths(month, -(count - 1));
  const months = Array.from({ length: count }, (_, i) => addMonths(from, i));
  const { lo, hi } = rangeBounds(from, month);
  const agg = await merchantAggregates(getDb(ctx.env.DB), lo, hi, monthBounds(month).lo, months);
  // Seen from the window's last day, or from today when the window reaches it (a monthly charge
  // due later this month is not overdue yet).
  const lastDay = Date.parse(`${addMonths(month, 1)}-01T00:00:00Z`) / 86_400_000 - 1;
  const asOfDay = Math.min(lastDay, Date.parse(`${today}T00:00:00Z`) / 86_400_000);
  const { merchants, summary } = intelligenceOut(
    analyze(buildSeries(agg.monthly, agg.names, months, agg.charges), months, agg.lastMonthTotal, asOfDay),
  );
  return { month, months_analyzed: count, period: { from, to: month }, merchants, summary };
}
