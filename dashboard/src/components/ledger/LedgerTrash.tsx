// Trashed rows across the ledger's months: restore, or delete for good (asked twice).
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import type { Transaction } from "../../api/types";
import { useApp } from "../../lib/app";
import { categoryLabel, txWhen } from "../../lib/format";
import { Money } from "../Money";
import { Empty, ErrorNotice } from "../States";
import { useAction } from "../useAction";

export function LedgerTrash({ rows, onChanged }: { rows: Transaction[]; onChanged: () => void }) {
  const { categories, canWrite } = useApp();
  const { busy, error, run } = useAction();
  const [confirm, setConfirm] = useState<string | null>(null);
  const restore = (t: Transaction) =>
    run(async () => {
      await unwrap(
        api.POST("/api/v1/transactions/{tx_id}/delete", {
          params: { path: { tx_id: t.tx_id } },
          body: { deleted: false },
        }),
      );
      onChanged();
    }, "Restored from trash");
  const purge = (t: Transaction) =>
    run(async () => {
      await unwrap(api.DELETE("/api/v1/transactions/{tx_id}", { params: { path: { tx_id: t.tx_id } } }));
      setConfirm(null);
      onChanged();
    }, "Deleted for good");
  if (rows.length === 0) return <Empty title="The trash is empty for these months" />;
  return (
    <>
      <ErrorNotice error={error} />
      <ul className="plain-list trash-list" data-testid="ledger-trash">
        {rows.map((t) => (
          <li key={t.tx_id} className="trash-item" data-testid="trash-row">
            <div className="row-between">
              <span>
                <strong>{t.company ?? "Unknown merchant"}</strong>{" "}
                <span className="muted small">
                  {txWhen(t.date).date} · {categoryLabel(t.category, categories)}
                </span>
              </span>
              <Money value={t.amount} />
            </div>
            <div className="actions">
              <button
                type="button"
                className="btn btn-small"
                disabled={!canWrite || busy}
                onClick={() => restore(t)}
              >
                Restore
              </button>
              {confirm === t.tx_id ? (
                <button
                  type="button"
                  className="btn btn-small btn-danger"
                  disabled={busy}
                  onClick={() => purge(t)}
                >
                  Yes, delete for good
                </button>
              ) : (
                <button
                  type="button"
                  className="btn btn-small btn-danger-quiet"
                  disabled={!canWrite || busy}
                  onClick={() => setConfirm(t.tx_id)}
                >
                  Delete for good…
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
