// A claim line: total, count and evidence coverage; expands to its rows and its excluded rows.
// The country-specific reference (`cra_ref`) is deliberately never rendered.
import { useState } from "react";
import { money } from "../../lib/format";
import type { LineOption, TaxLine } from "./api";
import { type RowActions, TaxRowItem } from "./TaxRowItem";

interface Props {
  line: TaxLine;
  options: LineOption[];
  canWrite: boolean;
  busy: boolean;
  act: RowActions;
}

export function TaxLineCard({ line, options, canWrite, busy, act }: Props) {
  const [open, setOpen] = useState(false);
  const ev = line.evidence_counts;
  const excluded = line.excluded_transactions ?? [];
  const panel = `tax-line-${line.key}`;
  return (
    <div className="card tax-line" data-testid="tax-line" data-line={line.key}>
      <button
        type="button"
        className="tax-line-head"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="tax-line-title">
          <span aria-hidden="true">{open ? "▾" : "▸"}</span> {line.label}
        </span>
        <span className="tax-line-total num" data-testid="tax-line-total">
          {money(line.total)}
        </span>
        <span className="tax-line-facts muted small">
          {line.transaction_count} {line.transaction_count === 1 ? "transaction" : "transactions"} ·{" "}
          {ev.receipt} receipt · {ev.statement} statement · {ev.email} email
          {excluded.length > 0 && ` · ${excluded.length} excluded`}
        </span>
      </button>
      {line.note && <p className="muted small tax-line-note">{line.note}</p>}
      {open && (
        <div id={panel}>
          {line.transactions.length === 0 ? (
            <p className="muted small">Nothing in this line for the year.</p>
          ) : (
            <ul className="tax-rows">
              {line.transactions.map((r) => (
                <TaxRowItem
                  key={r.tx_id}
                  row={r}
                  lineKey={line.key}
                  options={options}
                  canWrite={canWrite}
                  busy={busy}
                  act={act}
                />
              ))}
            </ul>
          )}
          {excluded.length > 0 && (
            <>
              <h3 className="small-h">Excluded (not counted)</h3>
              <ul className="tax-rows" data-testid="tax-excluded">
                {excluded.map((r) => (
                  <TaxRowItem
                    key={r.tx_id}
                    row={r}
                    lineKey={line.key}
                    excluded
                    options={options}
                    canWrite={canWrite}
                    busy={busy}
                    act={act}
                  />
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
