// Edit one ledger row: amount, merchant and type (the fields route), its category, and "always for
// this merchant" — which makes a rule and then offers to re-file the merchant's earlier rows.
import { useEffect, useState } from "react";
import { api, unwrap } from "../../api/client";
import type { Transaction } from "../../api/types";
import { useApp } from "../../lib/app";
import { categoryLabel, money, txWhen } from "../../lib/format";
import { Drawer } from "../Drawer";
import { ErrorNotice } from "../States";
import { useAction } from "../useAction";
import type { TxType } from "./ledgerModel";
import { MerchantOffer } from "./MerchantOffer";
import { type TxFieldValues, TxFields, typedCents } from "./TxFields";

interface Props {
  tx: Transaction;
  onClose: () => void;
  onChanged: () => void;
}

export function LedgerEdit({ tx, onClose, onChanged }: Props) {
  const { categories, canWrite } = useApp();
  const fields = useAction();
  const cat = useAction();
  const stored = (): TxFieldValues => ({
    amount: String(tx.amount ?? ""),
    company: tx.company ?? "",
    type: (tx.transaction_type as TxType) ?? "purchase",
  });
  const [values, setValues] = useState<TxFieldValues>(stored);
  const [category, setCategory] = useState(categoryLabel(tx.category, categories));
  const [always, setAlways] = useState(false);
  const [ruleFor, setRuleFor] = useState<string | null>(null);
  const path = { path: { tx_id: tx.tx_id } };
  // The row changed under the form (an Undo from the toast, a reload): show what is stored now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-read exactly when a stored field changes
  useEffect(() => setValues(stored()), [tx.amount, tx.company, tx.transaction_type]);
  useEffect(() => setCategory(categoryLabel(tx.category, categories)), [tx.category, categories]);

  const saveFields = () =>
    fields.run(async () => {
      const body: { amount?: number; company?: string; transaction_type?: TxType } = {};
      if (typedCents(values.amount) !== Math.round((tx.amount ?? 0) * 100))
        body.amount = Number(values.amount);
      if (values.company.trim() !== (tx.company ?? "")) body.company = values.company.trim();
      if (values.type !== tx.transaction_type) body.transaction_type = values.type;
      if (Object.keys(body).length === 0) return;
      await unwrap(api.PUT("/api/v1/transactions/{tx_id}/fields", { params: path, body }));
      onChanged();
    }, "Saved");

  const saveCategory = () =>
    cat.run(async () => {
      await unwrap(api.PATCH("/api/v1/transactions/{tx_id}", { params: path, body: { category } }));
      if (always && tx.company) {
        await unwrap(
          api.PUT("/api/v1/overrides/{company}", {
            params: { path: { company: tx.company } },
            body: { category },
          }),
        );
        setRuleFor(tx.company);
      }
      onChanged();
    }, "Category saved");

  const off = !canWrite || fields.busy || cat.busy;
  return (
    <Drawer title={tx.company ?? "Transaction"} onClose={onClose}>
      <p className="muted" data-testid="ledger-edit-when">
        {txWhen(tx.date).date} · {money(tx.amount)} · {tx.institution ?? "no institution"}
      </p>
      <form
        className="drawer-section"
        onSubmit={(e) => {
          e.preventDefault();
          void saveFields();
        }}
      >
        <h3>Amount, merchant and type</h3>
        <TxFields value={values} onChange={setValues} />
        <ErrorNotice error={fields.error} />
        <button type="submit" className="btn btn-primary" disabled={off}>
          Save changes
        </button>
      </form>
      <form
        className="drawer-section"
        onSubmit={(e) => {
          e.preventDefault();
          void saveCategory();
        }}
      >
        <h3>Category</h3>
        <label className="field">
          <span>Category</span>
          <select value={category} onChange={(e) => setCategory(e.target.value)} aria-label="Ledger category">
            {!categories.some((c) => c.toLowerCase() === category.toLowerCase()) && (
              <option value={category}>{category}</option>
            )}
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        {tx.company && (
          <label className="check">
            <input type="checkbox" checked={always} onChange={(e) => setAlways(e.target.checked)} />
            Always {category} for {tx.company}
          </label>
        )}
        <ErrorNotice error={cat.error} />
        <button type="submit" className="btn btn-primary" disabled={off}>
          Save category
        </button>
      </form>
      {ruleFor && (
        <MerchantOffer company={ruleFor} category={category} exceptId={tx.tx_id} onDone={onChanged} />
      )}
    </Drawer>
  );
}
