// Add a transaction by hand: a cash purchase, a withdrawal, a deposit the bank never emailed about.
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import { useApp } from "../../lib/app";
import { ErrorNotice } from "../States";
import { useAction } from "../useAction";
import { TX_TYPES, type TxType } from "./ledgerModel";

export function AddTransaction({ today, onAdded }: { today: string; onAdded: (month: string) => void }) {
  const { categories, canWrite } = useApp();
  const { busy, error, run } = useAction();
  const [date, setDate] = useState(today);
  const [amount, setAmount] = useState("");
  const [company, setCompany] = useState("");
  const [category, setCategory] = useState("");
  const [type, setType] = useState<TxType>("purchase");
  const [institution, setInstitution] = useState("Cash");
  const submit = () =>
    run(async () => {
      await unwrap(
        api.POST("/api/v1/transactions", {
          body: {
            date,
            amount: Number(amount),
            company: company.trim(),
            category: category || null,
            institution: institution.trim() || null,
            transaction_type: type,
          },
        }),
      );
      setAmount("");
      setCompany("");
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
        <label className="field">
          <span>Amount</span>
          <input
            type="number"
            inputMode="decimal"
            min="0.01"
            step="0.01"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            required
          />
        </label>
        <label className="field">
          <span>Merchant</span>
          <input value={company} onChange={(e) => setCompany(e.target.value)} required maxLength={500} />
        </label>
        <label className="field">
          <span>Type</span>
          <select value={type} onChange={(e) => setType(e.target.value as TxType)}>
            {TX_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
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
