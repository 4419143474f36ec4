// Upload history: one line per statement with its status, counts and the share alerts caught.
import { accountTypeLabel } from "../../lib/format";
import { ScrollRegion } from "../../components/ScrollRegion";
import { Link } from "../../lib/router";
import { STATUS_LABEL, type StatementSummary } from "./types";

const pct = (rate: number) => `${Math.round(rate * 100)}%`;

export function StatementList({ statements }: { statements: StatementSummary[] }) {
  return (
    <ScrollRegion label="Statements">
      <table className="table" data-testid="statement-list">
        <thead>
          <tr>
            <th scope="col">Statement</th>
            <th scope="col">Period</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Rows
            </th>
            <th scope="col" className="num">
              New
            </th>
            <th scope="col" className="num">
              Matched
            </th>
            <th scope="col" className="num">
              Alerts caught
            </th>
          </tr>
        </thead>
        <tbody>
          {statements.map((s) => (
            <tr key={s.id}>
              <td>
                <Link to={`/statements?id=${encodeURIComponent(s.id)}`}>{s.filename}</Link>
                <div className="muted small">
                  {s.institution} · {accountTypeLabel(s.account_type)}
                  {!s.balance_check.ok && (
                    <span className="tag tag-warn chip-gap">
                      {s.balance_check.checked ? "balances do not add up" : "balances unchecked"}
                    </span>
                  )}
                </div>
              </td>
              <td className="small">
                {s.period_start ?? "?"} – {s.period_end ?? "?"}
              </td>
              <td>
                <span className={`tag ${s.status === "complete" ? "tag-ok" : ""}`}>
                  {STATUS_LABEL[s.status]}
                </span>
              </td>
              <td className="num">{s.total_parsed}</td>
              <td className="num">{s.new_count}</td>
              <td className="num">{s.matched_count + s.ambiguous_count + s.suspected_duplicate_count}</td>
              <td className="num">{pct(s.capture.rate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
