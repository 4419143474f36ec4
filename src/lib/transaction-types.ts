/**
 * The transaction types: the one list (alerts yield the first five; statements also `deposit`).
 * Money's direction is part of the type for every type that can go both ways: `e-transfer` is an
 * Interac e-Transfer received (money in), `e-transfer-sent` one the person sent (money out, counted
 * as spending). The alert's own words decide (ingest/institutions/etransfer.ts `transferDirection`).
 */
export const TRANSACTION_TYPES = [
  "purchase",
  "withdrawal",
  "preauth",
  "e-transfer",
  "e-transfer-sent",
  "deposit",
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/**
 * The types an alert parser (or the model) may return (SPEC): an `e-transfer` is stored with its
 * direction (`e-transfer-sent` when the alert says the person sent it: ingest/pipeline.ts).
 */
export const ALERT_TYPES = [
  "purchase",
  "withdrawal",
  "preauth",
  "e-transfer",
] as const satisfies readonly TransactionType[];

/** Money out: counted as spending by summaries, budgets, the journal and the tax pack. */
export const SPENDING_TYPES = [
  "purchase",
  "withdrawal",
  "preauth",
  "e-transfer-sent",
] as const satisfies readonly TransactionType[];

/** Money in. */
export const DEPOSIT_TYPES = ["e-transfer", "deposit"] as const satisfies readonly TransactionType[];

export const isSpendingType = (t: string | null | undefined): boolean =>
  (SPENDING_TYPES as readonly string[]).includes((t ?? "").toLowerCase());
