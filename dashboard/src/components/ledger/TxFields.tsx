// The amount, merchant and type inputs shared by "add a transaction" and the ledger's edit drawer.
import { typeLabel } from "../../lib/format";
import { TX_TYPES, type TxType } from "./ledgerModel";

export interface TxFieldValues {
  amount: string;
  company: string;
  type: TxType;
}

/** Whole cents of a typed amount ("12.3" → 1230), so an edit is compared without float equality. */
export const typedCents = (amount: string): number => Math.round(Number(amount) * 100);

export function TxFields({
  value,
  onChange,
}: {
  value: TxFieldValues;
  onChange: (next: TxFieldValues) => void;
}) {
  const set = (patch: Partial<TxFieldValues>) => onChange({ ...value, ...patch });
  return (
    <>
      <label className="field">
        <span>Amount</span>
        <input
          type="number"
          inputMode="decimal"
          min="0.01"
          step="0.01"
          value={value.amount}
          onChange={(e) => set({ amount: e.target.value })}
          required
        />
      </label>
      <label className="field">
        <span>Merchant</span>
        <input
          value={value.company}
          onChange={(e) => set({ company: e.target.value })}
          required
          maxLength={500}
        />
      </label>
      <label className="field">
        <span>Type</span>
        <select value={value.type} onChange={(e) => set({ type: e.target.value as TxType })}>
          {TX_TYPES.map((t) => (
            <option key={t} value={t}>
              {typeLabel(t)}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
