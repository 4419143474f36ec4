import { Fragment, useState } from "react";
import { api, unwrap } from "../api/client";
import { MonthPicker } from "../components/MonthPicker";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { TxDrawer } from "../components/TxDrawer";
import { TxRow } from "../components/TxRow";
import { monthLabel } from "../lib/format";
import { useMonthParam } from "../lib/month";
import { Link } from "../lib/router";
import { useApi } from "../lib/useApi";
import { ParseFailures } from "./ParseFailures";
import { TrashList } from "./TrashList";

export function ReviewPage() {
  const { month, setMonth } = useMonthParam();
  const queue = useApi(
    () => unwrap(api.GET("/api/v1/transactions/attention", { params: { query: { month } } })),
    month,
  );
  const [open, setOpen] = useState<string | null>(null);
  const q = queue.data;
  return (
    <section aria-labelledby="review-h">
      <div className="page-head">
        <h1 id="review-h">Needs review</h1>
        <Link to="/review/ignored" data-testid="ignored-link">
          Ignored emails
        </Link>
      </div>
      <div className="card">
        <div className="row-between wrap">
          <h2>
            Attention queue{" "}
            {q && (
              <span className="count" data-testid="attention-count">
                {q.count}
              </span>
            )}
          </h2>
          <MonthPicker value={month} onChange={setMonth} />
        </div>
        <p className="muted small">
          Transactions to confirm: alerts rescued by AI, the first emails read by a bank you taught, amounts
          printed in another currency than the journal's, and alerts forwarded by an address you have not
          confirmed yet. Open one to check the amount, merchant and category; any edit or review clears it.
        </p>
        <ErrorNotice error={queue.error} onRetry={queue.reload} />
        {!q && queue.loading && <Loading rows={2} />}
        {q && q.transactions.length === 0 && (
          <Empty title={`Nothing needs attention in ${monthLabel(month)}`}>You're all caught up.</Empty>
        )}
        {q && q.transactions.length > 0 && (
          <ul className="tx-list">
            {q.transactions.map((t) => (
              <Fragment key={t.tx_id}>
                <TxRow tx={t} onOpen={setOpen} showDate />
                {/* Why it waits here, in words (another currency, an unknown forwarder). */}
                {t.extraction_audit?.notes?.map((n) => (
                  <li key={n} className="muted small attention-note" data-testid="attention-note">
                    {n}
                  </li>
                ))}
              </Fragment>
            ))}
          </ul>
        )}
      </div>
      <ParseFailures />
      <TrashList month={month} />
      {open && <TxDrawer txId={open} onClose={() => setOpen(null)} onChanged={queue.reload} />}
    </section>
  );
}
