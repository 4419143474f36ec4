// Add a transaction by hand: a cash purchase, a withdrawal, a deposit the bank never emailed about.
// An identical one already in the journal is not added silently: the form shows the stored one and
// offers "Add anyway" (two real purchases of the same thing on one day).
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import { hasCode } from "../../api/errors";
import type { Transaction } from "../../api/types";
import { useApp } from "../../lib/app";
import { categoryLabel, money, txWhen, typeLabel } from "../../lib/format";
import { ErrorNotice } from "../States";
import { useAction } from "../useAction";
import { type TxFieldValues, TxFields } from "./TxFields";

/** The stored twin a duplicate add names (the 409's `details.existing`), or null. */
function duplicateOf(err: unknown): Transaction | null {
  if (!hasCode(err, "DUPLICATE_TRANSACTION")) return null;
  const existing = err.details?.existing;
  return existing && typeof existing === "object" ? (existing as Transaction) : null;
}

export function AddTransaction({ today, onAdded }: { today: string; onAdded: (month: string) => void }) {
  const { categories, canWrite } = useApp();
  const { busy, error, setError, run } = useAction();
  const [date, setDate] = useState(today);
  const [fields, setFields] = useState<TxFieldValues>({ amount: "", company: "", type: "purchase" });
  const [category, setCategory] = useState("");
  const [institution, setInstitution] = useState("Cash");
  const duplicate = duplicateOf(error);
  const submit = (allowDuplicate: boolean) =>
    run(
      async () => {
        await unwrap(
          api.POST("/api/v1/transactions", {
            body: {
              date,
              amount: Number(fields.amount),
              company: fields.company.trim(),
              category: category || null,
              institution: institution.trim() || null,
              transaction_type: fields.type,
              ...(allowDuplicate ? { allow_duplicate: true } : {}),
            },
          }),
        );
        setFields({ ...fields, amount: "", company: "" });
        onAdded(date.slice(0, 7));
      },
      `Added ${fields.company.trim()} ${money(Number(fields.amount))}`,
    );
  // Any change to the form makes the duplicate notice stale.
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      if (duplicate) setError(null);
      set(v);
    };
  const when = duplicate ? txWhen(duplicate.date) : null;
  return (
    <form
      className="card"
      data-testid="add-transaction"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(false);
      }}
    >
      <h2>Add a transaction by hand</h2>
      <div className="form-grid">
        <label className="field">
          <span>Date</span>
          <input
            type="date"
            value={date}
            max={today}
            onChange={(e) => edit(setDate)(e.target.value)}
            required
          />
        </label>
        <TxFields value={fields} onChange={edit(setFields)} />
        <label className="field">
          <span>Category</span>
          <select value={category} onChange={(e) => edit(setCategory)(e.target.value)}>
            <option value="">Let the rules decide</option>
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Paid with</span>
          <input value={institution} onChange={(e) => edit(setInstitution)(e.target.value)} maxLength={100} />
        </label>
      </div>
      {duplicate ? (
        <div className="notice notice-warn" role="alert" data-testid="add-duplicate">
          <p>
            <strong>This one is already in your journal, so nothing was added.</strong> The stored one:{" "}
            {duplicate.company ?? "—"} {money(duplicate.amount)} on {when?.date}
            {duplicate.category ? `, ${categoryLabel(duplicate.category, categories)}` : ""},{" "}
            {typeLabel(duplicate.transaction_type).toLowerCase()}
            {duplicate.institution ? ` with ${duplicate.institution}` : ""}
            {duplicate.deleted_at ? " (in the trash)" : ""}.
          </p>
          <p>If you really made this purchase twice, add it anyway.</p>
          <div className="inline">
            <button
              type="button"
              className="btn btn-primary"
              disabled={!canWrite || busy}
              onClick={() => void submit(true)}
            >
              Add anyway
            </button>
            <button type="button" className="btn" onClick={() => setError(null)}>
              Don't add it
            </button>
          </div>
        </div>
      ) : (
        <ErrorNotice error={error} />
      )}
      {!duplicate && (
        <button type="submit" className="btn btn-primary" disabled={!canWrite || busy}>
          Add transaction
        </button>
      )}
    </form>
  );
}
