/** Coverage: per-institution alert cadence over the trailing window, and the email capture rate. */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { localToday } from "../../lib/local-time";
import { getConfig } from "../config/service";
import { coverageRows } from "./queries";
import { cadence, captureSummary, monthsBefore, WINDOW_MONTHS } from "./rules";
import type { CoverageResponse } from "./schemas";

export async function getCoverage(ctx: ServiceCtx): Promise<CoverageResponse> {
  const now = ctx.clock();
  const day = localToday(now, (await getConfig(ctx)).timezone).date;
  const db = getDb(ctx.env.DB);
  const { capture, ...alerts } = await coverageRows(db, monthsBefore(day, WINDOW_MONTHS));
  const byInstitution = new Map<string, string[]>();
  for (const r of alerts.days)
    byInstitution.set(r.institution, [...(byInstitution.get(r.institution) ?? []), r.day]);
  const institutions = alerts.last
    .map((r) => cadence(r.institution, byInstitution.get(r.institution) ?? [], r.day, day))
    .sort((a, b) => a.institution.localeCompare(b.institution));
  return {
    institutions,
    capture: captureSummary(capture),
    window_months: WINDOW_MONTHS,
    checked_at: now.toISOString(),
  };
}
