// The review table: one line per statement row with its tier, its match and its editable action,
// company and category. Edits save as they are made; settled rows are read-only.
import { ScrollRegion } from "../../components/ScrollRegion";
import { Money } from "../../components/Money";
import { categoryLabel } from "../../lib/format";
import { actionsFor, type RowAction, type StatementRow, TIER_LABEL } from "./types";

export interface RowEdit {
  action: RowAction;
  company?: string | null;
  category?: string | null;
}

interface Props {
  rows: StatementRow[];
  categories: string[];
  canWrite: boolean;
  selected: Set<number>;
  onSelect: (idx: number, on: boolean) => void;
  onEdit: (row: StatementRow, edit: RowEdit) => void;
}

/** On a phone each row becomes a small card: description and amount, then tier, action, company and category. */
const PHONE_CSS = `@media (max-width: 640px) {
  .stmt-rows thead { display: none; }
  .stmt-rows tr { display: grid; grid-template-columns: 28px 1fr auto; grid-template-areas: "sel desc amt" "sel date tier" "sel act act" "sel co co"; gap: 6px 8px; padding: 12px 0; }
  .stmt-rows td { display: block; padding: 0; border: 0; }
  .stmt-rows .c-sel { grid-area: sel; } .stmt-rows .c-date { grid-area: date; } .stmt-rows .c-desc { grid-area: desc; }
  .stmt-rows .c-amt { grid-area: amt; } .stmt-rows .c-tier { grid-area: tier; text-align: right; }
  .stmt-rows .c-act { grid-area: act; } .stmt-rows .c-co { grid-area: co; display: flex; flex-wrap: wrap; gap: 6px; }
  .stmt-rows .c-co input, .stmt-rows .c-co select { flex: 1 1 140px; min-width: 0; }
}`;

export function RowTable({ rows, categories, canWrite, selected, onSelect, onEdit }: Props) {
  return (
    <ScrollRegion label="Statement rows">
      <style>{PHONE_CSS}</style>
      <table className="table stmt-rows" data-testid="statement-rows">
        <thead>
          <tr>
            <th scope="col">
              <span className="sr-only">Select</span>
            </th>
            <th scope="col">Date</th>
            <th scope="col">Description</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col">Reconciliation</th>
            <th scope="col">Action</th>
            <th scope="col">Company and category</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const settled = r.action_result !== null;
            const tier = TIER_LABEL[r.reconcile_tier];
            const action = r.action as RowAction;
            return (
              <tr key={r.row_id} data-testid={`row-${r.tx_index}`} data-tier={r.reconcile_tier}>
                <td className="c-sel">
                  <input
                    type="checkbox"
                    aria-label={`Select row ${r.tx_index + 1}`}
                    checked={selected.has(r.tx_index)}
                    disabled={settled || !canWrite}
                    onChange={(e) => onSelect(r.tx_index, e.target.checked)}
                  />
                </td>
                <td className="c-date small">{r.date}</td>
                <td className="c-desc">
                  <strong>{r.cleaned_description}</strong>
                  <div className="muted small">{r.raw_description}</div>
                </td>
                <td className="c-amt num">
                  <Money value={r.amount} incoming={r.type === "deposit"} />
                </td>
                <td className="c-tier">
                  <span className={`tag ${tier.tone}`}>{tier.label}</span>
                  {r.transfer && (
                    <span className="tag tag-warn chip-gap" data-testid="transfer-tag">
                      transfer
                    </span>
                  )}
                  {r.db_company && (
                    <div className="small">
                      {r.db_company}
                      {r.company_differs && <span className="tag tag-warn chip-gap">company differs</span>}
                    </div>
                  )}
                  {r.reason && <div className="muted small">{r.reason}</div>}
                </td>
                <td className="c-act">
                  {settled ? (
                    <span className="tag tag-ok">{r.action_result}</span>
                  ) : (
                    <select
                      aria-label={`Action for row ${r.tx_index + 1}`}
                      value={action}
                      disabled={!canWrite}
                      onChange={(e) => onEdit(r, { action: e.target.value as RowAction })}
                    >
                      {actionsFor(r).map((a) => (
                        <option key={a} value={a}>
                          {a}
                        </option>
                      ))}
                    </select>
                  )}
                </td>
                <td className="c-co">
                  <input
                    type="text"
                    aria-label={`Company for row ${r.tx_index + 1}`}
                    defaultValue={r.edited_company ?? r.cleaned_description}
                    disabled={settled || !canWrite}
                    onBlur={(e) => {
                      const v = e.target.value.trim();
                      if (v && v !== (r.edited_company ?? r.cleaned_description))
                        onEdit(r, { action, company: v });
                    }}
                  />
                  <select
                    aria-label={`Category for row ${r.tx_index + 1}`}
                    value={r.edited_category ?? r.suggested_category}
                    disabled={settled || !canWrite}
                    onChange={(e) => onEdit(r, { action, category: e.target.value })}
                  >
                    {[...new Set([r.edited_category ?? r.suggested_category, ...categories])].map((c) => (
                      <option key={c} value={c}>
                        {categoryLabel(c, categories)}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
