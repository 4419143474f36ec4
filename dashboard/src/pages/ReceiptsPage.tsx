// "Receipts to file": drop or photograph receipts without choosing a transaction, then match them.
import { AiNeeds, useAiReadiness } from "../components/AiGate";
import { DropZone } from "../components/DropZone";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { useAction } from "../components/useAction";
import { useApp } from "../lib/app";
import { useApi } from "../lib/useApi";
import { listUnfiled, uploadReceipt } from "./receipts/api";
import { PickFiles } from "./receipts/PickFiles";
import { ReceiptCard } from "./receipts/ReceiptCard";
import "./receipts/receipts.css";

export function ReceiptsPage() {
  const { canWrite } = useApp();
  const ai = useAiReadiness("receipt_reading");
  const tray = useApi(listUnfiled, "receipts-tray");
  const { busy, error, run } = useAction();
  const add = (files: File[]) =>
    run(
      async () => {
        for (const f of files) await uploadReceipt(f);
        tray.reload();
      },
      files.length > 1 ? `${files.length} receipts added` : "Receipt added",
    );
  const items = tray.data?.attachments ?? [];
  return (
    <section aria-labelledby="receipts-page-h">
      <div className="page-head">
        <h1 id="receipts-page-h">Receipts to file</h1>
      </div>
      <p className="muted">
        Photos and PDFs of receipts not yet attached to a transaction. Find each one's transaction and link
        it; a receipt with exactly one exact match links itself. “Read with AI” fills in the total, date and
        merchant from the photo or PDF.
      </p>
      <AiNeeds action="receipt_reading" r={ai} />
      <DropZone testId="receipt-dropzone" label="Drop zone for receipts" onFiles={add} enabled={canWrite}>
        <p className="dropzone-title">{busy ? "Uploading…" : "Drop receipts here"}</p>
        <p className="muted small">JPEG, PNG, WebP, HEIC or PDF, up to 10 MB each</p>
        <PickFiles onFiles={add} disabled={!canWrite || busy} multiple />
      </DropZone>
      <ErrorNotice error={error} />
      <ErrorNotice error={tray.error} onRetry={tray.reload} />
      {tray.loading && !tray.data && <Loading rows={3} />}
      {tray.data && items.length === 0 && <Empty title="Nothing to file">Every receipt is attached.</Empty>}
      <div className="receipt-grid">
        {items.map((a) => (
          <ReceiptCard
            key={`${a.id}|${a.updated_at}`}
            a={a}
            ai={ai}
            canWrite={canWrite}
            onChanged={tray.reload}
          />
        ))}
      </div>
    </section>
  );
}
