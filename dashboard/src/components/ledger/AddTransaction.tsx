// Add a transaction by hand: a cash purchase, a withdrawal, a deposit the bank never emailed about.
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import { useApp } from "../../lib/app";
import { ErrorNotice } from "../States";
import { useAction } from "../useAction";
import { type TxFieldValues, TxFields } from "./TxFields";

export function AddTransaction({ today, onAdded }: { today: string; onAdded: (month: string) => void }) {
  const { categories, canWrite } = useApp();
  const { busy, error, run } = useAction();
  const [date, setDate] = useState(today);
  const [fields, setFields] = useState<TxFieldValues>({ amount: "", company: "", type: "purchase" });
  const [category, setCategory] = useState("");
  const [institution, setInstitution] = useState("Cash");
  const submit = () =>
    run(async () => {
      await unwrap(
        api.POST("/api/v1/transactions", {
          body: {
            date,
            amount: Number(fields.amount),
            company: fields.company.trim(),
            category: category || null,
            institution: institution.trim() || null,
            transaction_type: fields.type,
          },
        }),
      );
      setFields({ ...fields, amount: "", company: "" });
      onAdded(date.slice(0, 7));
    }, "Transaction added");
  return (
    <form
      className="card"
      data-testid="add-transaction"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2>Add a transaction by hand</h2>
      <div className="form-grid">
        <label className="field">
          <span>Date</span>
          <input type="date" value={date} max={today} onChange={(e) => setDate(e.target.value)} required />
        </label>
        <TxFields value={fields} onChange={setFields} />
        <label className="field">
          <span>Category</span>
          <select value={category} onChange={(e) => setCategory(e.target.value)}>
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
          <input value={institution} onChange={(e) => setInstitution(e.target.value)} maxLength={100} />
        </label>
      </div>
      <ErrorNotice error={error} />
      <button type="submit" className="btn btn-primary" disabled={!canWrite || busy}>
        Add transaction
      </button>
    </form>
  );
}
