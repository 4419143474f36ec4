/** Stored statement rows → the API's shapes (cents become decimal amounts here, nowhere else). */
import type { StatementRecord, StatementRowRecord } from "../../db/schema";
import { fromCents, fromCentsOrNull, round2, subCents, negCents } from "../../lib/money";
import type {
  StatementDetailResponse,
  StatementSummaryItem,
  StatementTransactionItem,
  StatementUploadResponse,
} from "./schemas";
import { balancesChecked } from "./parsers/balance";
import { readCandidates, readCsvState, readWarnings } from "./stored";

/** Rows imported from statements carry this recipient (no alert email delivered them). */
export const STATEMENT_RECIPIENT = "statement@finance-journal.local";
const NOT_ALERTS = new Set([STATEMENT_RECIPIENT, "manual@finance-journal.local"]);

const candidatesOf = (row: StatementRowRecord) =>
  readCandidates(row.candidates)?.map((c) => ({ ...c, amount: fromCentsOrNull(c.amount) })) ?? null;

/** A row an alert email had already captured (matched, ambiguous or flagged against an alert's row). */
export const caughtByAlert = (row: Pick<StatementRowRecord, "reconcile_tier" | "db_forwarded_to">) =>
  ["matched", "ambiguous", "suspected_duplicate"].includes(row.reconcile_tier) &&
  row.db_forwarded_to !== null &&
  !NOT_ALERTS.has(row.db_forwarded_to);

export function rowItem(row: StatementRowRecord): StatementTransactionItem {
  return {
    tx_index: row.tx_index,
    row_id: row.row_id,
    reconcile_tier: row.reconcile_tier as StatementTransactionItem["reconcile_tier"],
    date: row.date,
    raw_description: row.raw_description,
    cleaned_description: row.cleaned_description,
    amount: fromCents(row.amount),
    type: row.type,
    balance: fromCentsOrNull(row.balance),
    db_forwarded_to: row.db_forwarded_to,
    db_date_file_name: row.db_date_file_name,
    db_company: row.db_company,
    db_amount: fromCentsOrNull(row.db_amount),
    db_category: row.db_category,
    db_transaction_type: row.db_transaction_type,
    company_differs: row.company_differs === 1,
    enrichable: row.enrichable === 1,
    reason: row.reason,
    transfer: row.reconcile_tier === "new" && row.reason !== null,
    candidates: candidatesOf(row),
    suggested_category: row.suggested_category,
    action: row.action,
    edited_company: row.edited_company,
    edited_category: row.edited_category,
    action_result: row.action_result,
    acted_at: row.acted_at,
  };
}

export function counts(rows: readonly StatementRowRecord[]) {
  const tier = (t: string) => rows.filter((r) => r.reconcile_tier === t).length;
  const result = (x: string) => rows.filter((r) => r.action_result === x).length;
  return {
    total_parsed: rows.length,
    matched_count: tier("matched"),
    ambiguous_count: tier("ambiguous"),
    suspected_duplicate_count: tier("suspected_duplicate"),
    new_count: tier("new"),
    previously_imported_count: tier("previously_imported"),
    imported_count: result("imported"),
    enriched_count: result("enriched"),
    updated_count: result("updated"),
    skipped_count: result("skipped"),
    duplicate_count: result("duplicate"),
  };
}

export function capture(rows: readonly StatementRowRecord[]) {
  const caught = rows.filter(caughtByAlert).length;
  return { caught, total: rows.length, rate: rows.length ? round2(caught / rows.length) : 0 };
}

function balanceCheck(s: StatementRecord, rows: readonly StatementRowRecord[]) {
  const warnings = readWarnings(s.warnings);
  const first = rows[0];
  const last = rows.at(-1);
  const opening =
    first && first.balance !== null
      ? subCents(first.balance, first.type === "deposit" ? first.amount : negCents(first.amount))
      : null;
  return {
    ok: s.balance_ok === 1,
    checked: balancesChecked(s.parsed_with_ai === 1, rows),
    opening: fromCentsOrNull(opening),
    closing: fromCentsOrNull(last?.balance ?? null),
    warnings,
  };
}

export function summaryItem(s: StatementRecord, rows: readonly StatementRowRecord[]): StatementSummaryItem {
  return {
    id: s.id,
    filename: s.filename,
    institution: s.institution,
    account_type: s.account_type,
    period_start: s.period_start,
    period_end: s.period_end,
    uploaded_at: s.uploaded_at,
    updated_at: s.updated_at,
    completed_at: s.completed_at,
    parsed_with_ai: s.parsed_with_ai === 1,
    status: s.status as StatementSummaryItem["status"],
    ...counts(rows),
    file_kind: s.file_kind,
    balance_check: balanceCheck(s, rows),
    capture: capture(rows),
    csv_mapping: readCsvState(s.csv_mapping),
  };
}

export function detail(s: StatementRecord, rows: readonly StatementRowRecord[]): StatementDetailResponse {
  return { ...summaryItem(s, rows), transactions: rows.map(rowItem) };
}

export function uploadResponse(
  s: StatementRecord,
  rows: readonly StatementRowRecord[],
  others: StatementUploadResponse["other_statements"] = [],
  account: string | null = null,
): StatementUploadResponse {
  const items = rows.map(rowItem);
  const base = (r: StatementTransactionItem) => ({
    index: r.tx_index,
    row_id: r.row_id,
    statement_txn: {
      date: r.date,
      description: r.raw_description,
      amount: r.amount,
      type: r.type as "withdrawal" | "deposit",
      balance: r.balance,
    },
    cleaned_description: r.cleaned_description,
    raw_description: r.raw_description,
    suggested_category: r.suggested_category,
  });
  const match = (r: StatementTransactionItem) => ({
    forwarded_to: r.db_forwarded_to ?? "",
    date_file_name: r.db_date_file_name ?? "",
    company: r.db_company,
    amount: r.db_amount,
    category: r.db_category,
  });
  const of = (t: string) => items.filter((r) => r.reconcile_tier === t);
  const summary = summaryItem(s, rows);
  return {
    statement_id: s.id,
    transactions: items.map((r) => ({
      ...base(r).statement_txn,
      cleaned_description: r.cleaned_description,
    })),
    metadata: {
      institution: s.institution,
      account_type: s.account_type,
      period_start: s.period_start,
      period_end: s.period_end,
      transaction_count: rows.length,
      parsed_with_ai: s.parsed_with_ai === 1,
      ...(account ? { account } : {}),
    },
    other_statements: others,
    matched: of("matched").map((r) => ({
      ...base(r),
      db_match: match(r),
      company_differs: r.company_differs,
    })),
    ambiguous: of("ambiguous").map((r) => ({
      ...base(r),
      candidates: r.candidates ?? [],
      reason: r.reason ?? "",
      enrichable: r.enrichable,
    })),
    suspected_duplicates: of("suspected_duplicate").map((r) => ({
      ...base(r),
      db_match: { ...match(r), transaction_type: r.db_transaction_type },
      reason: r.reason ?? "",
    })),
    new: of("new").map(base),
    previously_imported: of("previously_imported").map((r) => ({ ...base(r), db_match: match(r) })),
    summary: counts(rows),
    balance_check: summary.balance_check,
  };
}
