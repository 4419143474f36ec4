// The transaction drawer's receipts: what is attached, and a photo or file to attach.
import { ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { useApi } from "../../lib/useApi";
import { link, listForTx, remove, uploadReceipt } from "./api";
import { PickFiles } from "./PickFiles";
import { Thumb } from "./Thumb";
import "./receipts.css";

export function TxReceipts({ txId }: { txId: string }) {
  const { canWrite } = useApp();
  const list = useApi(() => listForTx(txId), `receipts:${txId}`);
  const { busy, error, run } = useAction();
  const attach = (files: File[]) =>
    run(
      async () => {
        for (const f of files) await uploadReceipt(f, txId);
        list.reload();
      },
      files.length > 1 ? "Receipts attached" : "Receipt attached",
    );
  const items = list.data?.attachments ?? [];
  return (
    <section className="drawer-section" aria-labelledby="receipts-h" data-testid="tx-receipts">
      <h3 id="receipts-h">Receipts</h3>
      {list.loading && !list.data && <Loading rows={1} />}
      <ErrorNotice error={list.error ?? error} />
      {items.length === 0 && list.data && <p className="muted small">No receipt attached.</p>}
      {items.length > 0 && (
        <ul className="drawer-receipts">
          {items.map((a) => (
            <li key={a.id} data-testid="tx-receipt">
              <Thumb a={a} />
              <span className="muted" style={{ overflowWrap: "anywhere" }}>
                {a.original_filename}
              </span>
              {canWrite && (
                <span className="receipt-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={busy}
                    onClick={() =>
                      run(async () => {
                        await link(a.id, null);
                        list.reload();
                      }, "Receipt unlinked")
                    }
                  >
                    Unlink
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-danger-quiet"
                    disabled={busy}
                    onClick={() =>
                      run(async () => {
                        await remove(a.id);
                        list.reload();
                      }, "Receipt deleted")
                    }
                  >
                    Delete
                  </button>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {canWrite && <PickFiles onFiles={attach} disabled={busy} />}
      {busy && <p className="muted small">Uploading…</p>}
    </section>
  );
}
