// Merchants: recurring charges (a regular cadence with similar amounts: how often and the usual
// charge), the burn rate next to discretionary spending, price changes, and merchants new or gone.
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Money } from "../components/Money";
import { searchHref } from "../components/money-pages/links";
import { MonthPicker } from "../components/MonthPicker";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { useApp } from "../lib/app";
import { categoryLabel, money, monthLabel } from "../lib/format";
import { useMonthParam } from "../lib/month";
import { Link } from "../lib/router";
import { useApi } from "../lib/useApi";

type Intel = components["schemas"]["MerchantIntelligenceResponse"];

export function MerchantsPage() {
  const { month, thisMonth, setMonth } = useMonthParam();
  const intel = useApi(
    () => unwrap(api.GET("/api/v1/merchants/intelligence", { params: { query: { month, months: 6 } } })),
    month,
  );
  return (
    <section aria-labelledby="merchants-h">
      <div className="page-head">
        <h1 id="merchants-h">Merchants</h1>
        <MonthPicker value={month} onChange={setMonth} max={thisMonth} />
      </div>
      <ErrorNotice error={intel.error} onRetry={intel.reload} />
      {!intel.data && intel.loading && <Loading rows={6} />}
      {intel.data && <MerchantsBody d={intel.data} />}
    </section>
  );
}

function MerchantsBody({ d }: { d: Intel }) {
  const { categories } = useApp();
  const recurring = d.merchants
    .filter((m) => m.is_recurring)
    .sort((a, b) => (b.usual_charge ?? 0) - (a.usual_charge ?? 0) || a.company.localeCompare(b.company));
  const link = (company: string) => searchHref({ from: d.period.from, to: d.period.to, company });
  return (
    <>
      <div className="card stats stats-3" data-testid="merchant-summary">
        <div className="stat">
          <span className="stat-label">Recurring a month</span>
          <Money value={d.summary.recurring_burn_rate} className="stat-value" />
          <span className="stat-sub">
            {d.summary.recurring_count} recurring {d.summary.recurring_count === 1 ? "charge" : "charges"}
          </span>
        </div>
        <div className="stat">
          <span className="stat-label">Discretionary this month</span>
          <Money value={d.summary.discretionary_this_month} className="stat-value" />
          <span className="stat-sub">everything not recurring</span>
        </div>
        <div className="stat">
          <span className="stat-label">Looked at</span>
          <span className="stat-value">{d.months_analyzed} months</span>
          <span className="stat-sub">
            {monthLabel(d.period.from)} – {monthLabel(d.period.to)}
          </span>
        </div>
      </div>
      <div className="card" data-testid="recurring">
        <h2>Recurring charges</h2>
        {recurring.length === 0 ? (
          <Empty title="No recurring charges found" />
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Merchant</th>
                <th scope="col" className="hide-phone">
                  How often
                </th>
                <th scope="col" className="num">
                  Usual charge
                </th>
                <th scope="col" className="num hide-phone">
                  Months seen
                </th>
              </tr>
            </thead>
            <tbody>
              {recurring.map((m) => (
                <tr key={m.company}>
                  <td>
                    <Link to={link(m.company)}>{m.company}</Link>
                    <div className="muted small">
                      {categoryLabel(m.category, categories)}
                      <span className="show-phone"> · {cadenceLabel(m.cadence)}</span>
                    </div>
                  </td>
                  <td className="hide-phone">{cadenceLabel(m.cadence)}</td>
                  <td className="num">
                    <Money value={m.usual_charge ?? m.avg_amount} />
                  </td>
                  <td className="num hide-phone">{m.months_active}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div className="grid-2">
        <div className="card" data-testid="price-changes">
          <h2>Price changes</h2>
          {d.summary.price_changes.length === 0 ? (
            <Empty title="No price changes" />
          ) : (
            <ul className="plain-list">
              {d.summary.price_changes.map((p) => (
                <li key={p.merchant} className="row-between">
                  <Link to={link(p.merchant)}>{p.merchant}</Link>
                  <span className="small">
                    {money(p.old_amount)} → <strong>{money(p.new_amount)}</strong>{" "}
                    <span className="muted">since {monthLabel(p.since_month)}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="card" data-testid="new-churned">
          <h2>New and gone</h2>
          <h3 className="small-h">New this month ({d.summary.new_merchants.length})</h3>
          <p>{d.summary.new_merchants.length ? d.summary.new_merchants.join(", ") : "None"}</p>
          <h3 className="small-h">Stopped appearing ({d.summary.churned_merchants.length})</h3>
          <p>{d.summary.churned_merchants.length ? d.summary.churned_merchants.join(", ") : "None"}</p>
        </div>
      </div>
    </>
  );
}

const CADENCE_WORDS: Record<string, string> = {
  weekly: "Every week",
  "every two weeks": "Every two weeks",
  monthly: "Every month",
  quarterly: "Every three months",
  yearly: "Every year",
};

function cadenceLabel(cadence: string | null | undefined): string {
  return cadence ? (CADENCE_WORDS[cadence] ?? cadence) : "";
}
