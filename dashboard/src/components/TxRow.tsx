import type { Transaction } from "../api/types";
import { useApp } from "../lib/app";
import { categoryLabel, isIncoming, txWhen } from "../lib/format";
import { Money } from "./Money";

interface Props {
  tx: Transaction;
  onOpen: (txId: string) => void;
  showDate?: boolean;
}

/** One transaction as a button: merchant, category and source on the left, amount on the right. */
export function TxRow({ tx, onOpen, showDate }: Props) {
  const { categories } = useApp();
  const when = txWhen(tx.date);
  const incoming = isIncoming(tx.transaction_type);
  return (
    <li>
      <button
        type="button"
        className={`tx-row${tx.ignored ? " tx-ignored" : ""}${tx.deleted_at ? " tx-deleted" : ""}`}
        onClick={() => onOpen(tx.tx_id)}
        data-testid="tx-row"
        data-tx-id={tx.tx_id}
        data-company={tx.company ?? ""}
      >
        <span className="tx-main">
          <span className="tx-company">
            {tx.company ?? "Unknown merchant"}
            {tx.needs_attention && <span className="tag tag-warn">Review</span>}
            {tx.ignored && <span className="tag">Ignored</span>}
            {tx.deleted_at && <span className="tag tag-danger">In trash</span>}
            {tx.comment && (
              <span className="tx-comment-mark" title={tx.comment} role="img" aria-label="Has a comment">
                ✎
              </span>
            )}
          </span>
          <span className="tx-meta">
            <span className="chip" data-testid="tx-category">
              {categoryLabel(tx.category, categories)}
            </span>
            <span>
              {[showDate ? when.date : null, when.time, tx.institution].filter(Boolean).join(" · ")}
            </span>
          </span>
        </span>
        <Money value={tx.amount} incoming={incoming} className="tx-amount" />
      </button>
    </li>
  );
}
