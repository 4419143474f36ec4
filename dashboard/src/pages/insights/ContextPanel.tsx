import { api, unwrap } from "../../api/client";
import { ErrorNotice } from "../../components/States";
import { money, monthLabel } from "../../lib/format";
import { useApi } from "../../lib/useApi";

type Obj = Record<string, unknown>;
const num = (o: Obj | null | undefined, k: string) => (typeof o?.[k] === "number" ? (o[k] as number) : null);

/** What the model is given: the headline figures, with the full snapshot one click away. */
export function ContextPanel({ month }: { month: string }) {
  const c = useApi(
    () => unwrap(api.GET("/api/v1/insights/context", { params: { query: { month } } })),
    month,
  );
  if (c.error) return <ErrorNotice error={c.error} onRetry={c.reload} />;
  const d = c.data;
  if (!d) return null;
  const cur = num(d.current_month, "total_spending");
  const prev = num(d.previous_month, "total_spending");
  return (
    <details className="card" data-testid="insights-context">
      <summary>What the model is given for {monthLabel(month)}</summary>
      <ul>
        <li>
          This month: {cur === null ? "—" : money(cur)}; the month before: {prev === null ? "—" : money(prev)}
        </li>
        <li>
          Trend:{" "}
          {d.trend.map((t) => `${String(t.year_month)} ${money(num(t, "total_spending") ?? 0)}`).join(" · ")}
        </li>
        <li>
          Budget:{" "}
          {d.budget
            ? `ceiling ${money(num(d.budget, "spending_ceiling") ?? 0)}, ${money(num(d.budget, "ytd_spent") ?? 0)} spent this year`
            : "no ceiling set"}
        </li>
        <li>
          {d.fixed_charges.length} fixed charges, {d.recurring_annual.length} yearly charges,{" "}
          {d.anomalies.length} unusual categories, {d.commented_transactions.length} commented transactions
        </li>
        <li>Previous briefing: {d.previous_briefing ? monthLabel(d.previous_briefing.month) : "none"}</li>
        <li>Your memo: {d.user_memo ? `“${d.user_memo}”` : "none (Settings → Intelligence)"}</li>
      </ul>
      <details>
        <summary>The full snapshot (JSON)</summary>
        <pre className="small">{JSON.stringify(d, null, 2)}</pre>
      </details>
    </details>
  );
}
