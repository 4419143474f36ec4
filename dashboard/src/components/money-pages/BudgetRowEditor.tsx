// One category's line in the budget editor: amount in its mode (the other derived), type, group.
import type { components } from "../../api/schema";
import { useApp } from "../../lib/app";
import { categoryLabel, money } from "../../lib/format";
import { annualOf, type Row } from "./budgetForm";

type Average = components["schemas"]["HistoricalCategoryAverage"];

interface Props {
  row: Row;
  suggested: Average | undefined;
  onChange: (r: Row) => void;
  onRemove: () => void;
}

export function BudgetRowEditor({ row, suggested, onChange, onRemove }: Props) {
  const { categories } = useApp();
  const label = categoryLabel(row.category, categories);
  const other = row.mode === "monthly" ? `${money(row.annual)} a year` : `${money(row.annual / 12)} a month`;
  const switchMode = (mode: Row["mode"]) => {
    if (mode === row.mode) return;
    // Keep the annual target; show it in the new mode.
    const amount = row.annual
      ? String(Math.round((mode === "monthly" ? row.annual / 12 : row.annual) * 100) / 100)
      : "";
    onChange({ ...row, mode, amount });
  };
  return (
    <li className="budget-edit-row" data-testid="budget-row" data-category={row.category}>
      <div className="row-between">
        <strong>{label}</strong>
        <button
          type="button"
          className="btn btn-small btn-danger-quiet"
          onClick={onRemove}
          aria-label={`Remove ${label}`}
        >
          Remove
        </button>
      </div>
      <div className="budget-edit-fields">
        <label className="field">
          <span>Target</span>
          <input
            type="number"
            inputMode="decimal"
            min="0"
            step="0.01"
            value={row.amount}
            aria-label={`${label} target`}
            onChange={(e) =>
              onChange({ ...row, amount: e.target.value, annual: annualOf(row.mode, e.target.value) })
            }
          />
        </label>
        <label className="field">
          <span>Per</span>
          <select
            value={row.mode}
            onChange={(e) => switchMode(e.target.value as Row["mode"])}
            aria-label={`${label} entered per`}
          >
            <option value="monthly">month</option>
            <option value="yearly">year</option>
          </select>
        </label>
        <label className="field">
          <span>Type</span>
          <select
            value={row.type}
            onChange={(e) => onChange({ ...row, type: e.target.value as Row["type"] })}
            aria-label={`${label} type`}
          >
            <option value="fixed">fixed</option>
            <option value="variable">variable</option>
            <option value="lumpy">lumpy</option>
          </select>
        </label>
        <label className="field">
          <span>Group</span>
          <input
            list="budget-groups"
            value={row.group}
            placeholder="none"
            aria-label={`${label} group`}
            onChange={(e) => onChange({ ...row, group: e.target.value })}
          />
        </label>
      </div>
      <p className="muted small">
        = {other}
        {suggested && (
          <>
            {" "}
            · last months: {money(suggested.monthly_avg)}/mo, looks {suggested.suggested_type}
            {suggested.suggested_type !== row.type && (
              <button
                type="button"
                className="linklike"
                onClick={() => onChange({ ...row, type: suggested.suggested_type as Row["type"] })}
              >
                use {suggested.suggested_type}
              </button>
            )}
          </>
        )}
      </p>
    </li>
  );
}
