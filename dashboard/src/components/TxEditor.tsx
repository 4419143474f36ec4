import { useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { Transaction } from "../api/types";
import { useApp } from "../lib/app";
import { categoryLabel } from "../lib/format";
import { ErrorNotice } from "./States";
import { useAction } from "./useAction";

interface Props {
  tx: Transaction;
  /** After any write; `gone` when the transaction was deleted for good. */
  onChanged: (gone?: boolean) => void;
}

/** Category (optionally for every transaction of the merchant), comment, ignore, trash and restore. */
export function TxEditor({ tx, onChanged }: Props) {
  const { categories, canWrite } = useApp();
  const { busy, error, run } = useAction();
  const [category, setCategory] = useState(categoryLabel(tx.category, categories));
  const [always, setAlways] = useState(false);
  const [comment, setComment] = useState(tx.comment ?? "");
  const [confirmPurge, setConfirmPurge] = useState(false);
  const path = { path: { tx_id: tx.tx_id } };
  // The stored row changed under the form (an Undo from the toast): show what is stored now.
  useEffect(() => setCategory(categoryLabel(tx.category, categories)), [tx.category, categories]);
  useEffect(() => setComment(tx.comment ?? ""), [tx.comment]);
  const off = !canWrite || busy;
  const unchangedCategory = category.toLowerCase() === (tx.category ?? "").toLowerCase();

  const saveCategory = () =>
    run(
      async () => {
        await unwrap(api.PATCH("/api/v1/transactions/{tx_id}", { params: path, body: { category } }));
        if (always && tx.company) {
          await unwrap(
            api.PUT("/api/v1/overrides/{company}", {
              params: { path: { company: tx.company } },
              body: { category },
            }),
          );
        }
        onChanged();
      },
      always ? `Category saved, and always ${category} for ${tx.company}` : "Category saved",
    );

  const saveComment = () =>
    run(async () => {
      await unwrap(
        api.PUT("/api/v1/transactions/{tx_id}/comment", {
          params: path,
          body: { comment: comment.trim() || null },
        }),
      );
      onChanged();
    }, "Comment saved");

  const toggleIgnore = () =>
    run(
      async () => {
        await unwrap(
          api.POST("/api/v1/transactions/{tx_id}/ignore", { params: path, body: { ignored: !tx.ignored } }),
        );
        onChanged();
      },
      tx.ignored ? "Counted in totals again" : "Ignored: left out of totals",
    );

  const setTrashed = (deleted: boolean) =>
    run(
      async () => {
        await unwrap(api.POST("/api/v1/transactions/{tx_id}/delete", { params: path, body: { deleted } }));
        onChanged();
      },
      deleted ? "Moved to trash" : "Restored from trash",
    );

  const purge = () =>
    run(async () => {
      await unwrap(api.DELETE("/api/v1/transactions/{tx_id}", { params: path }));
      onChanged(true);
    }, "Deleted for good");

  const markReviewed = () =>
    run(async () => {
      await unwrap(api.POST("/api/v1/transactions/{tx_id}/review", { params: path }));
      onChanged();
    }, "Marked as reviewed");

  return (
    <section className="drawer-section" aria-labelledby="edit-h">
      <h3 id="edit-h">Edit</h3>
      <div className="field">
        <label htmlFor="tx-category">Category</label>
        <div className="inline">
          <select
            id="tx-category"
            value={category}
            onChange={(e) => setCategory(e.target.value)}
            disabled={off}
          >
            {!categories.some((c) => c.toLowerCase() === category.toLowerCase()) && (
              <option>{category}</option>
            )}
            {categories.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
          <button
            type="button"
            className="btn btn-primary"
            onClick={saveCategory}
            disabled={off || (unchangedCategory && !always)}
          >
            Save category
          </button>
        </div>
        {tx.company && (
          <label className="check">
            <input
              type="checkbox"
              checked={always}
              onChange={(e) => setAlways(e.target.checked)}
              disabled={off}
            />
            Always use this category for “{tx.company}”
          </label>
        )}
      </div>
      <div className="field">
        <label htmlFor="tx-comment">Comment</label>
        <textarea
          id="tx-comment"
          rows={2}
          maxLength={2000}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          disabled={off}
          placeholder="A note for future you"
        />
        <div className="inline">
          <button
            type="button"
            className="btn"
            onClick={saveComment}
            disabled={off || comment.trim() === (tx.comment ?? "")}
          >
            Save comment
          </button>
        </div>
      </div>
      <div className="actions">
        {tx.needs_attention && (
          <button type="button" className="btn" onClick={markReviewed} disabled={off}>
            Mark reviewed
          </button>
        )}
        <button type="button" className="btn" onClick={toggleIgnore} disabled={off} aria-pressed={tx.ignored}>
          {tx.ignored ? "Stop ignoring" : "Ignore"}
        </button>
        {tx.deleted_at ? (
          <>
            <button type="button" className="btn" onClick={() => setTrashed(false)} disabled={off}>
              Restore from trash
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={confirmPurge ? purge : () => setConfirmPurge(true)}
              disabled={off}
            >
              {confirmPurge ? "Really delete forever?" : "Delete forever"}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="btn btn-danger-quiet"
            onClick={() => setTrashed(true)}
            disabled={off}
          >
            Move to trash
          </button>
        )}
      </div>
      {!canWrite && <p className="muted small">Editing is turned off in the read-only demo.</p>}
      <ErrorNotice error={error} />
    </section>
  );
}
