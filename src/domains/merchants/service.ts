/** Merchant intelligence: SQL aggregates per merchant and month, pure rules, a 1-hour cache in kv_state. */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { localToday } from "../../lib/local-time";
import { log } from "../../lib/log";
import { addMonths, monthBounds, rangeBounds } from "../../lib/month";
import { getConfig } from "../config/service";
import { merchantAggregates, readCache, writeCache } from "./queries";
import { intelligenceOut } from "./response";
import { analyze } from "./rules";
import type { MerchantIntelligenceResponse } from "./schemas";

export const CACHE_TTL_MS = 60 * 60 * 1000;

interface IntelligenceInput {
  month?: string | undefined;
  months: number;
}

/**
 * The window `months` long ending at `month` (default: the current month in the configured
 * timezone): the cached answer while its row is fresh, else computed (its cache write begun in
 * waitUntil).
 */
export async function getMerchantIntelligence(
  ctx: ServiceCtx,
  input: IntelligenceInput,
): Promise<MerchantIntelligenceResponse> {
  const now = ctx.clock();
  const nowIso = now.toISOString();
  const local = localToday(now, (await getConfig(ctx)).timezone);
  const month = input.month ?? local.month;
  const count = input.months;
  const key = `merchant_intelligence:${month}:${count}` as const;
  const db = getDb(ctx.env.DB);
  const cached = await readCache(db, key);
  const oldest = new Date(now.getTime() - CACHE_TTL_MS).toISOString();
  if (cached && cached.updated_at > oldest && cached.updated_at <= nowIso) return cached.value;
  const result = analyzeWindow(
    month,
    count,
    local.date,
    await merchantAggregates(db, windowOf(month, count)),
  );
  // The response does not wait for the write: in waitUntil it begins after a macrotask, once the
  // response is on its way (merchants.test.ts holds the write and gets the answer).
  const later = new Promise((resolve) => setTimeout(resolve, 0));
  ctx.waitUntil(
    later
      .then(() => writeCache(db, key, result, nowIso))
      .catch((err) => log("warn", "merchants.cache_write_failed", { error: String(err) })),
  );
  return result;
}

type Aggregates = Awaited<ReturnType<typeof merchantAggregates>>;

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
  const { merchants, summary } = intelligenceOut(analyze(agg.series, months, agg.lastMonthTotal, asOfDay));
  return { month, months_analyzed: count, period: { from, to: month }, merchants, summary };
}
