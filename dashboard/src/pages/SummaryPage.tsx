import { api, unwrap } from "../api/client";
import type { Summary } from "../api/types";
import { Bars } from "../components/Bars";
import { searchHref } from "../components/money-pages/links";
import { Money } from "../components/Money";
import { MonthPicker } from "../components/MonthPicker";
import { PaceBlock } from "../components/PaceBlock";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { useApp } from "../lib/app";
import { categoryLabel, monthLabel, percent } from "../lib/format";
import { useMonthParam } from "../lib/month";
import { Link } from "../lib/router";
import { useApi } from "../lib/useApi";

export function SummaryPage() {
  const { month, setMonth } = useMonthParam();
  const summary = useApi(() => unwrap(api.GET("/api/v1/summary", { params: { query: { month } } })), month);
  const s = summary.data;
  return (
    <section aria-labelledby="summary-h">
      <div className="page-head">
        <h1 id="summary-h">Summary</h1>
        <MonthPicker value={month} onChange={setMonth} />
      </div>
      <ErrorNotice error={summary.error} onRetry={summary.reload} />
      {!s && summary.loading && <Loading rows={6} />}
      {s && <SummaryBody s={s} />}
    </section>
  );
}

function SummaryBody({ s }: { s: Summary }) {
  const { categories } = useApp();
  const cur = s.current;
  const month = s.current.year_month;
  const prevLabel = monthLabel(s.previous.year_month);
  const cats = Object.entries(cur.by_category)
    .sort((a, b) => b[1].amount - a[1].amount)
    .map(([name, v]) => ({
      key: name,
      label: `${categoryLabel(name, categories)} · ${v.count}`,
      value: v.amount,
      compare: s.previous.by_category[name]?.amount ?? 0,
      href: searchHref({ from: month, to: month, category: name }),
    }));
  const companies = Object.entries(cur.by_company)
    .sort((a, b) => b[1].amount - a[1].amount)
    .slice(0, 12)
    .map(([name, v]) => ({
      key: name,
      label: name,
      value: v.amount,
      note: `${categoryLabel(v.category, categories)} · ${v.count}`,
      href: searchHref({ from: month, to: month, company: name }),
    }));
  const deposits = Object.entries(s.deposits_by_company).sort((a, b) => b[1].amount - a[1].amount);
  return (
    <>
      <div className="card stats stats-4" data-testid="summary-totals">
        <div className="stat">
          <span className="stat-label">Spent</span>
          <Money value={cur.total_spending} className="stat-value" />
          <span className="stat-sub">{cur.spending_count} spending transactions</span>
        </div>
        <div className="stat">
          <span className="stat-label">vs {prevLabel}</span>
          <Money value={s.delta_amount} signed className="stat-value" />
          <span className="stat-sub">
            {s.delta_percent === null ? "no spending before" : percent(s.delta_percent)}
          </span>
        </div>
        <div className="stat">
          <span className="stat-label">Money in</span>
          <Money value={cur.deposit_total} incoming className="stat-value" />
          <span className="stat-sub">{cur.deposit_count} deposits</span>
        </div>
        <div className="stat">
          <span className="stat-label">Net</span>
          <Money value={cur.deposit_total - cur.total_spending} signed invert className="stat-value" />
          <span className="stat-sub">in minus out</span>
        </div>
      </div>
      {s.pace && <PaceBlock pace={s.pace} />}
      {s.anomalies.length > 0 && (
        <div className="card">
          <h2>Unusual this month</h2>
          <ul className="anomalies">
            {s.anomalies.map((a) => (
              <li key={a.category} className={`anomaly sev-${a.severity}`}>
                <span className="tag">{a.severity}</span>
                <strong>{categoryLabel(a.category, categories)}</strong> {a.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="grid-2">
        <div className="card">
          <h2>By category</h2>
          <p className="muted small">
            Bars are this month; the tick marks {prevLabel}. Pick a name to see its transactions.
          </p>
          {cats.length ? (
            <Bars items={cats} compareLabel={prevLabel} />
          ) : (
            <Empty title="No spending this month" />
          )}
        </div>
        <div className="card">
          <h2>By merchant</h2>
          <p className="muted small">Pick a name to see its transactions.</p>
          {companies.length ? <Bars items={companies} /> : <Empty title="No merchants this month" />}
        </div>
      </div>
      <div className="grid-2">
        <div className="card">
          <h2>Change from {prevLabel}</h2>
          {s.category_deltas.length === 0 ? (
            <Empty title="Nothing to compare" />
          ) : (
            <table className="table" data-testid="category-deltas">
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col" className="num">
                    This month
                  </th>
                  <th scope="col" className="num">
                    Change
                  </th>
                </tr>
              </thead>
              <tbody>
                {s.category_deltas.map((d) => (
                  <tr key={d.category}>
                    <td>
                      <Link to={searchHref({ from: month, to: month, category: d.category })}>
                        {categoryLabel(d.category, categories)}
                      </Link>
                    </td>
                    <td className="num">
                      <Money value={d.current} />
                    </td>
                    <td className="num">
                      <Money value={d.delta_amount} signed />{" "}
                      <span className="muted small">{percent(d.delta_pct)}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <div className="card">
          <h2>Money in</h2>
          {deposits.length === 0 ? (
            <Empty title="No deposits this month" />
          ) : (
            <ul className="plain-list">
              {deposits.map(([name, d]) => (
                <li key={name} className="row-between">
                  <span>
                    {name} <span className="muted small">× {d.count}</span>
                  </span>
                  <Money value={d.amount} incoming />
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </>
  );
}
