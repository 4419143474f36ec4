// The income statement of a year: income, expenses by type (fixed / variable / lumpy), net, the
// savings rate per month, and where the year is heading.
import { ScrollRegion } from "../components/ScrollRegion";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Money } from "../components/Money";
import { MONTH_SHORT, useYearParam, YearPicker } from "../components/money-pages/YearPicker";
import { ErrorNotice, Loading } from "../components/States";
import { useApp } from "../lib/app";
import { categoryLabel, money } from "../lib/format";
import { useApi } from "../lib/useApi";

type Statement = components["schemas"]["IncomeStatementResponse"];

const pct = (n: number | null) => (n === null ? "—" : `${Math.round(n * 1000) / 10}%`);

export function IncomePage() {
  const { year, setYear } = useYearParam();
  const st = useApi(
    () => unwrap(api.GET("/api/v1/income-statement", { params: { query: { year } } })),
    String(year),
  );
  return (
    <section aria-labelledby="income-h">
      <div className="page-head">
        <h1 id="income-h">Income statement</h1>
        <YearPicker value={year} onChange={setYear} />
      </div>
      <ErrorNotice error={st.error} onRetry={st.reload} />
      {!st.data && st.loading && <Loading rows={8} />}
      {st.data && <Body s={st.data} />}
    </section>
  );
}

const whole = (n: number) => money(n, { whole: true });

function Cells({ values, labels }: { values: readonly number[]; labels: readonly string[] }) {
  return (
    <>
      {values.map((v, i) => (
        <td key={labels[i] ?? i} className="num">
          {v ? whole(v) : "—"}
        </td>
      ))}
    </>
  );
}

function Body({ s }: { s: Statement }) {
  const { categories } = useApp();
  const labels = s.months.map((m) => MONTH_SHORT[Number(m.slice(5, 7)) - 1] ?? m);
  return (
    <>
      <div className="card stats stats-4" data-testid="income-projection">
        <div className="stat">
          <span className="stat-label">Income so far</span>
          <Money value={s.income.annual_total} incoming className="stat-value" />
          <span className="stat-sub">{money(s.projection.annualized_income)} over a full year</span>
        </div>
        <div className="stat">
          <span className="stat-label">Expenses so far</span>
          <Money value={s.total_expenses_annual} className="stat-value" />
          <span className="stat-sub">{money(s.projection.annualized_expenses)} over a full year</span>
        </div>
        <div className="stat">
          <span className="stat-label">Net</span>
          <Money value={s.net_annual} signed invert className="stat-value" />
          <span className="stat-sub">{money(s.projection.annualized_net, { signed: true })} projected</span>
        </div>
        <div className="stat">
          <span className="stat-label">Savings rate</span>
          <span className="stat-value">{pct(s.savings_rate_annual)}</span>
          <span className="stat-sub">
            {s.projection.months_elapsed} months in · committed floor {whole(s.committed_floor)}
          </span>
        </div>
      </div>
      <ScrollRegion label="Income statement table" className="card table-scroll" testId="income-table">
        <table className="table statement">
          <thead>
            <tr>
              <th scope="col">{s.year}</th>
              {labels.map((l) => (
                <th key={l} scope="col" className="num">
                  {l}
                </th>
              ))}
              <th scope="col" className="num">
                Year
              </th>
            </tr>
          </thead>
          <tbody>
            <tr className="statement-section">
              <th scope="row">Income</th>
              <Cells labels={labels} values={s.income.monthly_totals} />
              <td className="num">
                <strong>{whole(s.income.annual_total)}</strong>
              </td>
            </tr>
            {s.income.companies.map((c) => (
              <tr key={`in-${c.company}`}>
                <td className="statement-sub">{c.company}</td>
                <Cells labels={labels} values={c.months} />
                <td className="num">{whole(c.total)}</td>
              </tr>
            ))}
            {s.expense_sections.map((sec) => [
              <tr key={`sec-${sec.type_name}`} className="statement-section">
                <th scope="row">{sec.display_name}</th>
                <Cells labels={labels} values={sec.monthly_totals} />
                <td className="num">
                  <strong>{whole(sec.annual_total)}</strong>
                </td>
              </tr>,
              ...sec.categories.map((c) => (
                <tr key={`${sec.type_name}-${c.category}`}>
                  <td className="statement-sub">{categoryLabel(c.category, categories)}</td>
                  <Cells labels={labels} values={c.months} />
                  <td className="num">{whole(c.total)}</td>
                </tr>
              )),
            ])}
            <tr className="statement-section">
              <th scope="row">Expenses</th>
              <Cells labels={labels} values={s.total_expenses_monthly} />
              <td className="num">
                <strong>{whole(s.total_expenses_annual)}</strong>
              </td>
            </tr>
            <tr className="statement-section">
              <th scope="row">Net</th>
              <Cells labels={labels} values={s.net_monthly} />
              <td className="num">
                <strong>{whole(s.net_annual)}</strong>
              </td>
            </tr>
            <tr>
              <th scope="row">Savings rate</th>
              {s.savings_rate_monthly.map((r, i) => (
                <td key={labels[i]} className="num">
                  {pct(r)}
                </td>
              ))}
              <td className="num">{pct(s.savings_rate_annual)}</td>
            </tr>
          </tbody>
        </table>
      </ScrollRegion>
    </>
  );
}
