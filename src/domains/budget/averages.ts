/**
 * Historical category averages over the N complete months before the current month, cached in
 * the isolate for one hour (SPEC.md limits). The cache key is the window (months and its end
 * month, so a new month is a new key); the injected clock decides expiry.
 */
import type { ServiceCtx } from "../../lib/context";
import { localToday } from "../../lib/local-time";
import { getDb } from "../../db";
import { type Cents, fromCents, roundCents, ZERO_CENTS, sumCents } from "../../lib/money";
import { addMonths, rangeBounds } from "../../lib/month";
import { getConfig } from "../config/service";
import { type MonthCategoryRow, monthlyByCategory } from "./history-queries";
import { inferCategoryType } from "./rules";
import type { HistoricalAveragesResponse } from "./schemas";

export const CACHE_TTL_MS = 60 * 60 * 1000;
const MAX_ENTRIES = 64;

const cache = new Map<string, { at: number; value: HistoricalAveragesResponse }>();

/** Empties the isolate cache (tests; nothing in the app needs it). */
export function clearAveragesCache(): void {
  cache.clear();
}

export async function getHistoricalAverages(
  ctx: ServiceCtx,
  months: number,
): Promise<HistoricalAveragesResponse> {
  const { timezone, user_id } = await getConfig(ctx);
  const current = localToday(ctx.clock(), timezone).month;
  const start = addMonths(current, -months);
  const end = addMonths(current, -1);
  const key = `${user_id}|${months}|${start}|${end}`;
  const now = ctx.clock().getTime();
  const hit = cache.get(key);
  // A clock that went backwards (tests standing at an earlier instant) also misses.
  if (hit && now >= hit.at && now - hit.at < CACHE_TTL_MS) return hit.value;
  const rows = await monthlyByCategory(getDb(ctx.env.DB), rangeBounds(start, end));
  const value = averagesOf(rows, { start, end });
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, { at: now, value });
  return value;
}

/** Pure: per-category averages over the months of the window that hold any spending (rows in cents). */
function averagesOf(
  rows: Pick<MonthCategoryRow, "month" | "key" | "total">[],
  period: { start: string; end: string },
): HistoricalAveragesResponse {
  const months = [...new Set(rows.map((r) => r.month))].sort();
  const keys = [...new Set(rows.map((r) => r.key))].sort();
  const categories: HistoricalAveragesResponse["categories"] = {};
  for (const k of keys) {
    const series: Cents[] = months.map(
      (m) => rows.find((r) => r.month === m && r.key === k)?.total ?? ZERO_CENTS,
    );
    const total = sumCents(series);
    const avg = roundCents(total / months.length);
    categories[k] = {
      monthly_avg: fromCents(avg),
      total: fromCents(total),
      months_active: series.filter((v) => v > 0).length,
      suggested_type: inferCategoryType(series),
      suggested_monthly: fromCents(avg),
      suggested_annual: fromCents(roundCents((total * 12) / months.length)),
    };
  }
  return { months_analyzed: months.length, period, categories };
}
