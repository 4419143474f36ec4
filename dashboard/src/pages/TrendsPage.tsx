// Trends: 2–12 months of spending totals and a line per category; a category opens its search.
import { useState } from "react";
import { api, unwrap } from "../api/client";
import { searchHref } from "../components/money-pages/links";
import { MonthColumns } from "../components/money-pages/YearPicker";
import { MonthPicker } from "../components/MonthPicker";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { useApp } from "../lib/app";
import { categoryLabel, money, shiftMonth, count } from "../lib/format";
import { useMonthParam } from "../lib/month";
import { Link } from "../lib/router";
import { useApi } from "../lib/useApi";

const SPANS = [2, 3, 6, 9, 12];
const short = new Intl.DateTimeFormat(undefined, { month: "short", timeZone: "UTC" });
const monthShort = (ym: string) => short.format(new Date(`${ym}-01T00:00:00Z`));

export function TrendsPage() {
  const { categories } = useApp();
  const { month, thisMonth, setMonth } = useMonthParam();
  const [months, setMonths] = useState(6);
  const trend = useApi(
    () => unwrap(api.GET("/api/v1/summary/trend", { params: { query: { months, end_month: month } } })),
    `${month}|${months}`,
  );
  const list = trend.data?.months ?? [];
  const labels = list.map((m) => monthShort(m.year_month));
  const from = shiftMonth(month, -(months - 1));
  const cats = [...new Set(list.flatMap((m) => Object.keys(m.by_category)))]
    .map((c) => ({ c, values: list.map((m) => m.by_category[c]?.amount ?? 0) }))
    .map((x) => ({ ...x, total: x.values.reduce((s, v) => s + v, 0) }))
    .sort((a, b) => b.total - a.total);
  return (
    <section aria-labelledby="trends-h">
      <div className="page-head">
        <h1 id="trends-h">Trends</h1>
        <div className="row-gap">
          <MonthPicker value={month} onChange={setMonth} max={thisMonth} />
          <select
            value={months}
            onChange={(e) => setMonths(Number(e.target.value))}
            aria-label="How many months"
          >
            {SPANS.map((n) => (
              <option key={n} value={n}>
                {n} months
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorNotice error={trend.error} onRetry={trend.reload} />
      {!trend.data && trend.loading && <Loading rows={6} />}
      {trend.data && (
        <>
          <div className="card" data-testid="trend-totals">
            <h2>Spending per month</h2>
            <MonthColumns
              values={list.map((m) => m.total_spending)}
              labels={labels}
              format={(n) => money(n, { whole: true })}
            />
            <p className="muted small">
              {count(
                list.reduce((s, m) => s + m.spending_count, 0),
                "transaction",
              )}{" "}
              · average {money(list.reduce((s, m) => s + m.total_spending, 0) / Math.max(1, list.length))} a
              month
            </p>
          </div>
          <div className="card" data-testid="trend-categories">
            <h2>By category</h2>
            {cats.length === 0 ? (
              <Empty title="No spending in these months" />
            ) : (
              <ul className="trend-cats">
                {cats.map(({ c, values, total }) => {
                  const max = Math.max(1, ...values);
                  return (
                    <li key={c} className="trend-cat">
                      <div className="row-between">
                        <Link to={searchHref({ from, to: month, category: c })}>
                          {categoryLabel(c, categories)}
                        </Link>
                        <span className="amount small">{money(total)}</span>
                      </div>
                      <ol className="sparkbars" aria-label={`${categoryLabel(c, categories)} by month`}>
                        {values.map((v, i) => (
                          <li key={labels[i]} title={`${labels[i]}: ${money(v)}`}>
                            <span
                              className="sparkbar"
                              style={{ height: `${Math.max(2, (v / max) * 100)}%` }}
                            />
                            <span className="sr-only">
                              {labels[i]}: {money(v)}
                            </span>
                          </li>
                        ))}
                      </ol>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
}
