// With rows selected: move them all to one category (one bulk call, one ledger entry), or trash them.
import { count } from "../../lib/format";
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import type { Transaction } from "../../api/types";
import { useApp } from "../../lib/app";
import { ErrorNotice } from "../States";
import { useAction } from "../useAction";

export function BulkBar({ rows, onDone }: { rows: Transaction[]; onDone: () => void }) {
  const { categories, canWrite } = useApp();
  const { busy, error, run } = useAction();
  const [category, setCategory] = useState("");
  const apply = () =>
    run(
      async () => {
        await unwrap(
          api.PATCH("/api/v1/transactions/bulk", {
            body: {
              updates: rows.map((t) => ({
                forwarded_to: t.forwarded_to,
                date_file_name: t.date_file_name,
                category,
              })),
              source: "manual_bulk",
            },
          }),
        );
        onDone();
      },
      `${count(rows.length, "transaction")} moved to ${category}`,
    );
  const trash = () =>
    run(async () => {
      for (const t of rows)
        await unwrap(
          api.POST("/api/v1/transactions/{tx_id}/delete", {
            params: { path: { tx_id: t.tx_id } },
            body: { deleted: true },
          }),
        );
      onDone();
    }, `${rows.length} moved to trash`);
  return (
    <section className="bulk-bar" aria-label="Selected transactions" data-testid="bulk-bar">
      <strong>{rows.length} selected</strong>
      <select
        value={category}
        onChange={(e) => setCategory(e.target.value)}
        aria-label="Move the selection to category"
      >
        <option value="">Move to category…</option>
        {categories.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="btn btn-small btn-primary"
        disabled={!canWrite || busy || !category}
        onClick={apply}
      >
        Apply
      </button>
      <button
        type="button"
        className="btn btn-small btn-danger-quiet"
        disabled={!canWrite || busy}
        onClick={trash}
      >
        Trash
      </button>
      <ErrorNotice error={error} />
    </section>
  );
}
