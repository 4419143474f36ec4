import { useState } from "react";
import { api, unwrap } from "../api/client";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { TxDrawer } from "../components/TxDrawer";
import { TxRow } from "../components/TxRow";
import { monthLabel } from "../lib/format";
import { useApi } from "../lib/useApi";

/** The month's trashed transactions; open one to restore it or delete it for good. */
export function TrashList({ month }: { month: string }) {
  const trash = useApi(
    () => unwrap(api.GET("/api/v1/transactions/trash", { params: { query: { month } } })),
    month,
  );
  const [open, setOpen] = useState<string | null>(null);
  const list = trash.data?.transactions ?? [];
  return (
    <div className="card" data-testid="trash">
      <h2>Trash {trash.data && <span className="count">{trash.data.count}</span>}</h2>
      <p className="muted small">Trashed transactions are left out of every total until you restore them.</p>
      <ErrorNotice error={trash.error} onRetry={trash.reload} />
      {!trash.data && trash.loading && <Loading rows={1} />}
      {trash.data && list.length === 0 && <Empty title={`The trash is empty for ${monthLabel(month)}`} />}
      {list.length > 0 && (
        <ul className="tx-list">
          {list.map((t) => (
            <TxRow key={t.tx_id} tx={t} onOpen={setOpen} showDate />
          ))}
        </ul>
      )}
      {open && <TxDrawer txId={open} onClose={() => setOpen(null)} onChanged={trash.reload} />}
    </div>
  );
}
