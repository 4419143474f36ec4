/** Merchant intelligence leaves the journal here: the rules' cents become the API's decimal amounts. */
import { type Decimals, fromCents } from "../../lib/money";
import type { analyze, MerchantRecord, PriceChange } from "./rules";

const priceOut = <T extends PriceChange>(p: T): Decimals<PriceChange> & Omit<T, keyof PriceChange> => ({
  ...p,
  old_amount: fromCents(p.old_amount),
  new_amount: fromCents(p.new_amount),
});

const recordOut = (r: MerchantRecord): Decimals<MerchantRecord> => ({
  ...r,
  total: fromCents(r.total),
  monthly_amounts: r.monthly_amounts.map(fromCents),
  avg_amount: fromCents(r.avg_amount),
  usual_charge: r.usual_charge === null ? null : fromCents(r.usual_charge),
  price_change: r.price_change && priceOut(r.price_change),
});

export function intelligenceOut({
  merchants,
  summary,
}: ReturnType<typeof analyze>): Decimals<ReturnType<typeof analyze>> {
  return {
    merchants: merchants.map(recordOut),
    summary: {
      ...summary,
      recurring_burn_rate: fromCents(summary.recurring_burn_rate),
      discretionary_this_month: fromCents(summary.discretionary_this_month),
      price_changes: summary.price_changes.map(priceOut),
    },
  };
}
