/** Pure transaction rules: row → API shape, editable images, audit stamps. No I/O. */
import { z } from "zod";
import type { TransactionRow } from "../../db/schema";
import { readCategoryAudit, readContext, readExtractionAudit } from "../../ingest/stored";
import { fromCents, fromCentsOrNull, toCents } from "../../lib/money";
import { encodeTxId } from "../../lib/txid";
import { CategoryAudit, ExtractionAudit, type TransactionResponse } from "./schemas";

/** The recipient a hand-entered transaction is filed under (no alert carried it). */
export const MANUAL_RECIPIENT = "manual@finance-journal.local";

/** A transactions row (Amount in cents; JSON columns decoded), with the attention flag of a list read. */
export type TxRow = TransactionRow & { needs_attention?: number | boolean | null };

/**
 * The columns a transaction's API shape is made of. Lists read only these: the email itself (Body,
 * Subject, addresses) can be kilobytes a row and is only shown by the detail read.
 */
export const LISTED = [
  "ForwardedTo",
  "DateFileName",
  "Date",
  "Amount",
  "Company",
  "Category",
  "Institution",
  "TransactionType",
  "Name",
  "Ignored",
  "Comment",
  "DeletedAt",
  "CategoryAudit",
  "ExtractionAudit",
  "TransactionContext",
  "StatementSource",
] as const satisfies readonly (keyof TransactionRow)[];
export type ListedRow = Pick<TransactionRow, (typeof LISTED)[number]> & {
  needs_attention?: number | boolean | null;
};

/** Only the keys the published schema declares: stored JSON may hold others (older or imported rows). */
function declared(a: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in a).map((k) => [k, a[k]]));
}
const AUDIT_KEYS = Object.keys(CategoryAudit.shape);
const EXTRACTION_KEYS = Object.keys(ExtractionAudit.shape);

function auditOut(stored: unknown) {
  const a = readCategoryAudit(stored);
  if (!a) return null;
  return {
    ...declared(a, AUDIT_KEYS),
    tier: a.tier === null || a.tier === undefined ? null : String(a.tier),
  } as TransactionResponse["category_audit"];
}

function extractionOut(stored: unknown) {
  const a = readExtractionAudit(stored);
  return a ? (declared(a, EXTRACTION_KEYS) as TransactionResponse["extraction_audit"]) : null;
}

/**
 * The stored month-to-date snapshot in the API's shape (decimal amounts). Rows written before the
 * optional fields were always present lack `category_budget_target`/`category_budget_pct`: they
 * read as null; snapshots written before cents hold decimals (readContext reads both).
 */
export function contextOut(stored: unknown): TransactionResponse["context"] {
  const c = readContext(stored);
  if (!c) return null;
  return {
    category_month_total: fromCents(c.category_month_total),
    merchant_month_count: c.merchant_month_count,
    category_budget_target: fromCentsOrNull(c.category_budget_target),
    category_budget_pct: c.category_budget_pct,
  };
}

export function toResponse(r: ListedRow): TransactionResponse {
  return {
    tx_id: encodeTxId(r.ForwardedTo, r.DateFileName),
    forwarded_to: r.ForwardedTo,
    date_file_name: r.DateFileName,
    date: r.Date,
    amount: fromCentsOrNull(r.Amount),
    company: r.Company,
    category: r.Category,
    institution: r.Institution,
    transaction_type: r.TransactionType,
    name: r.Name,
    ignored: Boolean(r.Ignored),
    comment: r.Comment,
    deleted_at: r.DeletedAt,
    needs_attention: Boolean(r.needs_attention),
    category_audit: auditOut(r.CategoryAudit),
    extraction_audit: extractionOut(r.ExtractionAudit),
    context: contextOut(r.TransactionContext),
    statement_source: r.StatementSource,
  };
}

/** The user-editable part of a row: what the ledger images hold and revert restores. */
const EDITABLE = [
  "Category",
  "CategoryAudit",
  "Comment",
  "Amount",
  "Company",
  "TransactionType",
  "Ignored",
  "DeletedAt",
] as const;
export type Editable = Pick<TxRow, (typeof EDITABLE)[number]>;

const text = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

/**
 * A `transaction` ledger image: the editable fields. Images keep the decimal `Amount` the API
 * speaks (as entries written before amounts moved to cents do), so every entry, old or new,
 * reverts through the same path; `CategoryAudit` is the map (its JSON text in older entries); a
 * field an older image lacks reads as null (Ignored: 0, a boolean as 0/1).
 */
export const EditableImage = z.object({
  Category: text,
  CategoryAudit: z.unknown().transform((v) => readCategoryAudit(v ?? null)),
  Comment: text,
  Amount: z
    .number()
    .nullish()
    .transform((v) => v ?? null),
  Company: text,
  TransactionType: text,
  Ignored: z
    .union([z.number(), z.boolean()])
    .nullish()
    .transform((v) => Number(v ?? 0)),
  DeletedAt: text,
});
export type EditableImage = z.infer<typeof EditableImage>;

/** The ledger image of a row (its keys in EDITABLE's order). */
export function editableImage(r: TxRow | Editable): EditableImage {
  return {
    Category: r.Category,
    CategoryAudit: readCategoryAudit(r.CategoryAudit),
    Comment: r.Comment,
    Amount: fromCentsOrNull(r.Amount),
    Company: r.Company,
    TransactionType: r.TransactionType,
    Ignored: r.Ignored,
    DeletedAt: r.DeletedAt,
  };
}

/**
 * The ledger image of a row just written by the commit (a hand add, a resolve): the editable
 * columns as the insert stored them (no comment, counted, not in the trash), so an undo's stale
 * check compares it with the row as read back.
 */
export function createdImage(
  tx: Pick<TxRow, "Category" | "CategoryAudit" | "Amount" | "Company" | "TransactionType">,
): EditableImage {
  return editableImage({ ...tx, Comment: null, Ignored: 0, DeletedAt: null });
}

/** Inverse of editableImage: column values ready to write (the image's decimal Amount to cents). */
export function imageColumns({ Amount, ...rest }: EditableImage): Editable {
  return { ...rest, Amount: Amount !== null && Number.isFinite(Amount) ? toCents(Amount) : null };
}

/** CategoryAudit after a person changes the category (source manual, previous kept). */
export function correctedAudit(
  prevAudit: unknown,
  prevCategory: string | null,
  source: string,
  nowIso: string,
): Record<string, unknown> {
  const prev = readCategoryAudit(prevAudit) ?? {};
  return {
    source,
    matched_rule: null,
    confidence: 1,
    tier: null,
    model: null,
    fallback_reason: null,
    reviewed_at: nowIso,
    previous_category: prevCategory,
    previous_source: (prev.source as string | undefined) ?? null,
    schema_version: 1,
  };
}

/** A review-only mark: the category stays; the audit records who looked and when. */
export function reviewedAudit(prevAudit: unknown, nowIso: string): Record<string, unknown> {
  const prev = readCategoryAudit(prevAudit) ?? {};
  return {
    ...prev,
    source: "audit",
    reviewed_at: nowIso,
    previous_source: (prev.source as string | undefined) ?? null,
    schema_version: 1,
  };
}

/** Category names are stored lowercased; the canonical list spelling wins when it exists. */
export function canonicalCategory(input: string, list: readonly string[]): string | null {
  const hit = list.find((c) => c.toLowerCase() === input.trim().toLowerCase());
  return hit ? hit.toLowerCase() : null;
}
