// The ledger table: sortable headers, checkboxes for bulk edits; at phone width each row is a card.
import type { Transaction } from "../../api/types";
import { useApp } from "../../lib/app";
import { categoryLabel, isIncoming, txWhen, typeLabel } from "../../lib/format";
import { Money } from "../Money";
import type { Sort, SortKey } from "./ledgerModel";

interface Props {
  rows: Transaction[];
  sort: Sort;
  onSort: (s: Sort) => void;
  selected: Set<string>;
  onSelect: (ids: Set<string>) => void;
  onOpen: (t: Transaction) => void;
}

const COLS: { key: SortKey; label: string; num?: boolean }[] = [
  { key: "date", label: "Date" },
  { key: "company", label: "Merchant" },
  { key: "category", label: "Category" },
  { key: "type", label: "Type" },
  { key: "amount", label: "Amount", num: true },
];

export function LedgerTable({ rows, sort, onSort, selected, onSelect, onOpen }: Props) {
  const { categories, canWrite } = useApp();
  const all = rows.length > 0 && rows.every((r) => selected.has(r.tx_id));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelect(next);
  };
  return (
    <table className="table ledger-table" data-testid="ledger-table">
      <thead>
        <tr>
          <th scope="col" className="ledger-check">
            <input
              type="checkbox"
              aria-label="Select every row shown"
              checked={all}
              disabled={!canWrite}
              onChange={() => onSelect(all ? new Set() : new Set(rows.map((r) => r.tx_id)))}
            />
          </th>
          {COLS.map((c) => (
            <th
              key={c.key}
              scope="col"
              className={c.num ? "num" : undefined}
              aria-sort={sort.key === c.key ? (sort.dir === 1 ? "ascending" : "descending") : "none"}
            >
              <button
                type="button"
                className="sort-btn"
                onClick={() =>
                  onSort({
                    key: c.key,
                    dir: sort.key === c.key ? (sort.dir === 1 ? -1 : 1) : c.key === "date" || c.num ? -1 : 1,
                  })
                }
              >
                {c.label}
                <span aria-hidden="true">{sort.key === c.key ? (sort.dir === 1 ? " ▲" : " ▼") : ""}</span>
              </button>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((t) => {
          const when = txWhen(t.date);
          return (
            <tr
              key={t.tx_id}
              data-testid="ledger-row"
              data-tx-id={t.tx_id}
              className={t.ignored ? "tx-ignored" : undefined}
            >
              <td className="ledger-check">
                <input
                  type="checkbox"
                  aria-label={`Select ${t.company ?? "transaction"} ${when.date}`}
                  checked={selected.has(t.tx_id)}
                  disabled={!canWrite}
                  onChange={() => toggle(t.tx_id)}
                />
              </td>
              <td className="ledger-date">{when.date}</td>
              <td className="ledger-company">
                <button
                  type="button"
                  className="linklike"
                  onClick={() => onOpen(t)}
                  data-testid="ledger-open"
                >
                  {t.company ?? "Unknown merchant"}
                </button>
                {t.needs_attention && <span className="tag tag-warn">Review</span>}
                {t.ignored && <span className="tag">Ignored</span>}
              </td>
              <td className="ledger-category">
                <span className="chip">{categoryLabel(t.category, categories)}</span>
              </td>
              <td className="ledger-type muted">{typeLabel(t.transaction_type)}</td>
              <td className="num ledger-amount">
                <Money value={t.amount} incoming={isIncoming(t.transaction_type)} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
