/**
 * The monthly summary notification (SPEC Events: the 8th at 17:00 UTC, previous month), sent
 * through the configured provider. Provider failures are logged, never thrown.
 */
import type { Env } from "../../env";
import { type Notifier, type NotifyMessage, notifierFromEnv, safeSend } from "../../notify";
import { jobCtx } from "../activity/journal";
import type { Clock } from "../../lib/clock";
import { addMonths } from "../../lib/month";
import { currentMonth, getSummary } from "./service";

const money = (n: number) =>
  `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function monthName(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1, 15)).toLocaleString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** The message text (pure). */
function monthlySummaryMessage(s: Awaited<ReturnType<typeof getSummary>>): NotifyMessage {
  const cur = s.current;
  const lines = [
    `${money(cur.total_spending)} spent in ${cur.spending_count} transaction${cur.spending_count === 1 ? "" : "s"}`,
  ];
  if (s.previous.total_spending > 0 && s.delta_percent !== null) {
    const sign = s.delta_percent >= 0 ? "+" : "";
    lines[0] += ` (${sign}${s.delta_percent.toFixed(1)}% vs ${monthName(s.previous.year_month).split(" ")[0]})`;
  }
  if (cur.top_categories.length) {
    lines.push(
      `Top: ${cur.top_categories
        .slice(0, 3)
        .map((t) => `${t.name} ${money(t.amount)}`)
        .join(", ")}`,
    );
  }
  if (cur.deposit_total > 0) lines.push(`Money in: ${money(cur.deposit_total)}`);
  const high = s.anomalies.filter((a) => a.severity === "high").map((a) => a.category);
  if (high.length) lines.push(`Unusual: ${high.join(", ")}`);
  return { kind: "summary", title: `${monthName(s.month)} summary`, text: lines.join("\n") };
}

/** Summarizes the month before the current one (in the configured time zone) and sends it. */
export async function sendMonthlySummary(env: Env, clock: Clock, notifier: Notifier = notifierFromEnv(env)) {
  const { ctx } = jobCtx(env, clock, "summary.monthly");
  const { month } = await currentMonth(ctx);
  const summary = await getSummary(ctx, addMonths(month, -1));
  const message = monthlySummaryMessage(summary);
  await safeSend(notifier, message);
  return message;
}
