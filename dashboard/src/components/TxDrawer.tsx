import { api, unwrap } from "../api/client";
import type { TransactionDetail } from "../api/types";
import { useApi } from "../lib/useApi";
import { useApp } from "../lib/app";
import { categoryLabel, isIncoming } from "../lib/format";
import { AuditTrail } from "./AuditTrail";
import { Drawer } from "./Drawer";
import { Money } from "./Money";
import { TxReceipts } from "../pages/receipts/TxReceipts";
import { TxTaxClaim } from "../pages/tax/TxTaxClaim";
import { ErrorNotice, Loading } from "./States";
import { TxEditor } from "./TxEditor";
import { txFacts } from "./txFacts";

interface Props {
  txId: string;
  onClose: () => void;
  /** The list behind the drawer should reload. */
  onChanged: () => void;
}

export function TxDrawer({ txId, onClose, onChanged }: Props) {
  const { categories } = useApp();
  const detail = useApi(
    () => unwrap(api.GET("/api/v1/transactions/{tx_id}/detail", { params: { path: { tx_id: txId } } })),
    txId,
  );
  const d: TransactionDetail | undefined = detail.data;
  const tx = d?.transaction;
  // The category's month total as it stands now (refreshed with every change made here).
  const month = tx?.date?.match(/^(\d{2})\/\d{2}\/(\d{4})/);
  const ym = month ? `${month[2]}-${month[1]}` : null;
  const summary = useApi(
    () =>
      ym ? unwrap(api.GET("/api/v1/summary", { params: { query: { month: ym } } })) : Promise.resolve(null),
    `${ym}|${tx?.category}|${tx?.ignored}|${tx?.deleted_at}`,
  );
  // The monthly target of the row's category as it stands now (a recategorize moves the row to
  // another category's budget): from the year's budget status.
  const year = month ? Number(month[2]) : null;
  const budget = useApi(
    () =>
      year && tx?.category
        ? unwrap(api.GET("/api/v1/budget/status", { params: { query: { year } } }))
        : Promise.resolve(null),
    `${year}|${tx?.category}`,
  );
  const changed = (gone?: boolean) => {
    onChanged();
    if (gone) onClose();
    else {
      detail.reload();
      summary.reload();
    }
  };
  const liveTotal =
    summary.data && tx?.category
      ? (summary.data.current.by_category[tx.category.toLowerCase()]?.amount ?? 0)
      : null;
  const key = tx?.category?.toLowerCase();
  const budgeted = budget.data?.groups
    .flatMap((g) => g.categories)
    .find((c) => c.category.toLowerCase() === key);
  // Unknown until the status is read (no line rather than another category's target).
  const liveTarget = budget.data ? (budgeted?.monthly_amount ?? null) : budget.error ? null : undefined;
  const facts = d ? txFacts(d, liveTotal, liveTarget) : [];
  return (
    <Drawer title={tx?.company ?? "Transaction"} onClose={onClose}>
      {detail.loading && !d && <Loading rows={6} />}
      <ErrorNotice error={detail.error} onRetry={detail.reload} />
      {tx && d && (
        <>
          <div className="drawer-hero">
            <Money value={tx.amount} incoming={isIncoming(tx.transaction_type)} className="hero-amount" />
            <span className="chip">{categoryLabel(tx.category, categories)}</span>
          </div>
          <section className="drawer-section" aria-label="Details">
            <dl className="facts">
              {facts.map(([k, v]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            </dl>
          </section>
          <TxReceipts txId={txId} />
          <TxTaxClaim tx={tx} />
          <TxEditor
            key={`${tx.category}|${tx.comment}|${tx.ignored}|${tx.deleted_at}`}
            tx={tx}
            onChanged={changed}
          />
          <AuditTrail tx={tx} />
          <section className="drawer-section" aria-labelledby="email-h">
            <h3 id="email-h">Original email</h3>
            <dl className="facts">
              <div>
                <dt>Subject</dt>
                <dd>{d.subject ?? "—"}</dd>
              </div>
              <div>
                <dt>From</dt>
                <dd>{[d.from_name, d.from_email].filter(Boolean).join(" ") || "—"}</dd>
              </div>
              <div>
                <dt>To</dt>
                <dd>{[d.to_name, d.to_email].filter(Boolean).join(" ") || "—"}</dd>
              </div>
            </dl>
            {d.body ? <pre className="email-body">{d.body}</pre> : <p className="muted">No body stored.</p>}
          </section>
        </>
      )}
    </Drawer>
  );
}
