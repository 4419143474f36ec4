// Budgets: the year at a glance — ceiling, pace, groups and their categories, unbudgeted spending,
// month by month, and the prior year.
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Money } from "../components/Money";
import { MonthColumns, useYearParam, YearPicker } from "../components/money-pages/YearPicker";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { useApp } from "../lib/app";
import { categoryLabel, money } from "../lib/format";
import { Link } from "../lib/router";
import { searchHref } from "../components/money-pages/links";
import { useApi } from "../lib/useApi";

type Status = components["schemas"]["BudgetStatusResponse"];
type Group = components["schemas"]["GroupPace"];
type Cat = components["schemas"]["CategoryPaceDetail"];

const STATUS_WORD: Record<string, string> = { under: "Under pace", on_track: "On track", over: "Over pace" };
const STATUS_TAG: Record<string, string> = { under: "tag-ok", on_track: "tag-ok", over: "tag-danger" };
const QUALITY: Record<string, string> = {
  forecast: "from this month's pace",
  historical: "from a typical month",
  limited: "rough: little history",
  committed: "fixed charge",
};

export function BudgetPage() {
  const { year, setYear } = useYearParam();
  const status = useApi(
    () => unwrap(api.GET("/api/v1/budget/status", { params: { query: { year, compare_year: year - 1 } } })),
    String(year),
  );
  const s = status.data;
  return (
    <section aria-labelledby="budget-h">
      <div className="page-head">
        <h1 id="budget-h">Budget</h1>
        <div className="row-gap">
          <YearPicker value={year} onChange={setYear} />
          <Link to={`/budget/edit?year=${year}`} className="btn btn-primary" data-testid="edit-budget">
            Edit budget
          </Link>
        </div>
      </div>
      <ErrorNotice error={status.error} onRetry={status.reload} />
      {!s && status.loading && <Loading rows={6} />}
      {s && <BudgetBody s={s} />}
    </section>
  );
}

function BudgetBody({ s }: { s: Status }) {
  const o = s.overall;
  if (o.spending_ceiling === 0 && s.groups.length === 0) {
    return (
      <Empty title={`No budget for ${s.year} yet`}>
        <p>
          Set a yearly ceiling and a target per category; the editor can fill them in from your last six
          months.
        </p>
        <Link to={`/budget/edit?year=${s.year}`} className="btn btn-primary">
          Create a budget
        </Link>
      </Empty>
    );
  }
  const used = o.spending_ceiling > 0 ? Math.min(100, (o.ytd_spent / o.spending_ceiling) * 100) : 0;
  const expected = o.spending_ceiling > 0 ? Math.min(100, (o.expected_pace / o.spending_ceiling) * 100) : 0;
  return (
    <>
      <div className="card" data-testid="budget-overview">
        <p className="budget-headline">
          <span className={`tag ${STATUS_TAG[o.status]}`}>{STATUS_WORD[o.status]}</span> {o.headline}
        </p>
        <div className="stats stats-4">
          <Stat label="Spent this year" value={o.ytd_spent} sub={`as of ${s.as_of}`} />
          <Stat label="Ceiling" value={o.spending_ceiling} sub={`${Math.round(used)}% used`} />
          <Stat
            label="Expected by now"
            value={o.expected_pace}
            sub={`${Math.round(s.elapsed_year_fraction * 100)}% of the year`}
          />
          <div className="stat">
            <span className="stat-label">{o.variance > 0 ? "Over pace by" : "Under pace by"}</span>
            <Money
              value={Math.abs(o.variance)}
              className={`stat-value ${o.variance > 0 ? "text-danger" : ""}`}
            />
            <span className="stat-sub">
              {o.projected_month_total !== null
                ? `this month heads to ${money(o.projected_month_total)}`
                : " "}
            </span>
          </div>
        </div>
        <div
          className={`year-bar ${o.ytd_spent > o.spending_ceiling ? "over" : ""}`}
          role="img"
          aria-label={`${money(o.ytd_spent)} of a ${money(o.spending_ceiling)} ceiling spent; ${money(o.expected_pace)} expected by now`}
        >
          <span className="year-bar-fill" style={{ width: `${used}%` }} />
          <span className="year-bar-mark" style={{ left: `${expected}%` }} />
        </div>
        <p className="muted small">
          The bar is what you spent; the mark is where an even pace would be today.
        </p>
      </div>
      {s.groups.map((g) => (
        <GroupCard key={g.name} g={g} year={s.year} />
      ))}
      {s.unbudgeted.length > 0 && (
        <div className="card" data-testid="unbudgeted">
          <h2>Spending without a target</h2>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Category</th>
                <th scope="col" className="num">
                  This month
                </th>
                <th scope="col" className="num">
                  Year to date
                </th>
                <th scope="col" className="num hide-phone">
                  Usual month
                </th>
              </tr>
            </thead>
            <tbody>
              {s.unbudgeted.map((u) => (
                <tr key={u.category}>
                  <td>
                    <Link to={searchHref({ from: `${s.year}-01`, to: `${s.year}-12`, category: u.category })}>
                      {categoryLabel(u.category)}
                    </Link>
                  </td>
                  <td className="num">
                    <Money value={u.current_month_spent} />
                  </td>
                  <td className="num">
                    <Money value={u.ytd_spent} />
                  </td>
                  <td className="num hide-phone">
                    <Money value={u.monthly_avg_historical} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="card" data-testid="budget-months">
        <h2>Month by month</h2>
        <MonthColumns values={s.monthly_totals} format={(n) => money(n, { whole: true })} />
        {s.prior_year_total !== null && (
          <p className="muted small" data-testid="prior-year">
            {s.compare_year ?? s.year - 1} in all: {money(s.prior_year_total)} · {s.year} so far:{" "}
            {money(o.ytd_spent)}
          </p>
        )}
      </div>
    </>
  );
}

function Stat({ label, value, sub }: { label: string; value: number; sub: string }) {
  return (
    <div className="stat">
      <span className="stat-label">{label}</span>
      <Money value={value} className="stat-value" />
      <span className="stat-sub">{sub}</span>
    </div>
  );
}

function GroupCard({ g, year }: { g: Group; year: number }) {
  const { categories } = useApp();
  return (
    <div className="card" data-testid="budget-group">
      <h2 className="row-between">
        <span>
          {g.name} <span className={`tag ${STATUS_TAG[g.status]}`}>{STATUS_WORD[g.status]}</span>
        </span>
        <span className="small muted">
          {money(g.ytd_spent, { whole: true })} of {money(g.budgeted_total, { whole: true })}
        </span>
      </h2>
      <ul className="budget-cats">
        {g.categories.map((c) => (
          <CategoryLine key={c.category} c={c} year={year} label={categoryLabel(c.category, categories)} />
        ))}
      </ul>
    </div>
  );
}

function CategoryLine({ c, label, year }: { c: Cat; label: string; year: number }) {
  const pct = Math.round(c.pace_percent);
  const width = Math.min(100, c.ytd_expected > 0 ? (c.ytd_spent / (c.ytd_expected * 1.5)) * 100 : 0);
  const mark = c.ytd_expected > 0 ? (1 / 1.5) * 100 : 0;
  return (
    <li className="budget-cat" data-testid="budget-category">
      <div className="row-between">
        <Link
          to={searchHref({ from: `${year}-01`, to: `${year}-12`, category: c.category })}
          className="budget-cat-name"
        >
          {label}
        </Link>
        <span className={`small ${c.status === "over" ? "text-danger" : "muted"}`}>
          {pct}% of pace · {STATUS_WORD[c.status]}
        </span>
      </div>
      <div className="pace-track budget-pace" aria-hidden="true">
        <div className={`pace-fill ${c.status === "over" ? "over" : ""}`} style={{ width: `${width}%` }} />
        <div className="pace-typical" style={{ left: `${mark}%` }} />
      </div>
      <dl className="budget-facts">
        <div>
          <dt>Target</dt>
          <dd>
            {money(c.monthly_amount)}/mo <span className="muted">({c.category_type})</span>
          </dd>
        </div>
        <div>
          <dt>This month</dt>
          <dd>
            {money(c.current_month_spent)} <span className="muted">of {money(c.current_month_expected)}</span>
          </dd>
        </div>
        <div>
          <dt>Year to date</dt>
          <dd>
            {money(c.ytd_spent)} <span className="muted">of {money(c.ytd_expected)}</span>
          </dd>
        </div>
        {c.forecast_month_total !== null && (
          <div>
            <dt>Month forecast</dt>
            <dd>
              {money(c.forecast_month_total)}
              {c.forecast_lower !== null && c.forecast_upper !== null && (
                <span className="muted">
                  {" "}
                  (likely {money(c.forecast_lower, { whole: true })}–
                  {money(c.forecast_upper, { whole: true })})
                </span>
              )}
              {c.forecast_quality && <span className="muted"> · {QUALITY[c.forecast_quality]}</span>}
            </dd>
          </div>
        )}
      </dl>
    </li>
  );
}
