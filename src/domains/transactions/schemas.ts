import { calendarDate } from "../../lib/calendar";
import { z } from "zod";
import { MONTH_RE } from "../../lib/month";
import { TRANSACTION_TYPES } from "../../lib/transaction-types";

export const Month = z.string().regex(MONTH_RE, "must be a month as YYYY-MM");
const nstr = z.string().nullable();

export const CategoryAudit = z
  .object({
    source: nstr.optional(),
    matched_rule: nstr.optional(),
    confidence: z.number().nullable().optional(),
    reviewed_at: nstr.optional(),
    tier: nstr.optional(),
    model: nstr.optional(),
    fallback_reason: nstr.optional(),
    previous_category: nstr.optional(),
    previous_source: nstr.optional(),
    schema_version: z.number().int().nullable().optional(),
  })
  .meta({ id: "CategoryAudit" });

export const ExtractionAudit = z
  .object({
    method: nstr.optional(),
    model: nstr.optional(),
    validated: z.boolean().nullable().optional(),
    extracted_at: nstr.optional(),
    schema_version: z.number().int().nullable().optional(),
    currency: nstr.optional().describe("ISO code of the currency printed beside the amount"),
    currency_printed: nstr.optional().describe("The currency mark as printed ($, USD, Rs.)"),
    notes: z.array(z.string()).nullable().optional().describe("Why the row needs a look, in words"),
    forwarded_by: nstr.optional().describe("A forwarding address not known yet"),
  })
  .meta({ id: "ExtractionAudit" });

export const TransactionContext = z
  .object({
    category_month_total: z.number(),
    merchant_month_count: z.number().int(),
    category_budget_target: z.number().nullable(),
    category_budget_pct: z.number().nullable(),
  })
  .meta({ id: "TransactionContext" });

export const TransactionResponse = z
  .object({
    tx_id: z.string(),
    forwarded_to: z.string(),
    date_file_name: z.string(),
    date: nstr,
    amount: z.number().nullable(),
    company: nstr,
    category: nstr,
    institution: nstr,
    transaction_type: nstr,
    name: nstr,
    ignored: z.boolean(),
    comment: nstr,
    deleted_at: nstr,
    needs_attention: z.boolean().describe("On the attention queue until a person touches it"),
    // z.union with z.null(): chanfana drops the null of `Ref.nullable()` from the generated schema.
    category_audit: z.union([CategoryAudit, z.null()]),
    extraction_audit: z.union([ExtractionAudit, z.null()]),
    context: z.union([TransactionContext, z.null()]),
    statement_source: nstr,
  })
  .meta({ id: "TransactionResponse" });
export type TransactionResponse = z.infer<typeof TransactionResponse>;

export const TransactionListResponse = z
  .object({ month: z.string(), count: z.number().int(), transactions: z.array(TransactionResponse) })
  .meta({ id: "TransactionListResponse" });

export const AttentionListResponse = z
  .object({ month: z.string(), count: z.number().int(), transactions: z.array(TransactionResponse) })
  .meta({ id: "AttentionListResponse" });

export const CombinedTransactionsResponse = z
  .object({
    month: z.string(),
    transactions: TransactionListResponse,
    attention: AttentionListResponse,
    trash: TransactionListResponse,
  })
  .meta({ id: "CombinedTransactionsResponse" });

export const TransactionDetailResponse = z
  .object({
    tx_id: z.string(),
    forwarded_to: z.string(),
    date_file_name: z.string(),
    subject: nstr,
    body: nstr,
    from_name: nstr,
    from_email: nstr,
    to_name: nstr,
    to_email: nstr,
    file_name: nstr,
    transaction: TransactionResponse,
  })
  .meta({ id: "TransactionDetailResponse" });

export const TxIdParams = z.object({ tx_id: z.string().min(1) });
export const MonthQuery = z.object({ month: Month });

const keys = { tx_id: z.string(), forwarded_to: z.string(), date_file_name: z.string() };
const State = z.enum(["active", "ignored", "trashed"]);

export const CategoryUpdateRequest = z
  .object({
    category: z.string().trim().min(1).max(100).nullable().optional(),
    reviewed: z.boolean().nullable().optional(),
    state: State.nullable().optional(),
  })
  .strict()
  .meta({ id: "CategoryUpdateRequest" });
export const CategoryUpdateResponse = z
  .object({
    ...keys,
    old_category: nstr.optional(),
    new_category: nstr.optional(),
    reviewed: z.boolean().nullable().optional(),
    state: State.nullable().optional(),
    deleted_at: nstr.optional(),
  })
  .meta({ id: "CategoryUpdateResponse" });

export const CommentRequest = z
  .object({ comment: z.string().max(2000).nullable().optional() })
  .strict()
  .meta({ id: "CommentRequest" });
export const CommentResponse = z.object({ ...keys, comment: nstr }).meta({ id: "CommentResponse" });

export const TransactionFieldsUpdateRequest = z
  .object({
    amount: z.number().positive().max(100_000_000).nullable().optional(),
    company: z.string().trim().min(1).max(500).nullable().optional(),
    transaction_type: z.enum(TRANSACTION_TYPES).nullable().optional(),
  })
  .strict()
  .meta({ id: "TransactionFieldsUpdateRequest" });
export const TransactionFieldsOldValues = z
  .object({ company: nstr, amount: z.number().nullable(), transaction_type: nstr })
  .meta({ id: "TransactionFieldsOldValues" });
export const TransactionFieldsUpdateResponse = z
  .object({
    ...keys,
    company: nstr,
    amount: z.number().nullable(),
    transaction_type: nstr,
    category: nstr,
    old_values: TransactionFieldsOldValues,
  })
  .meta({ id: "TransactionFieldsUpdateResponse" });

export const DeleteRequest = z.object({ deleted: z.boolean() }).strict().meta({ id: "DeleteRequest" });
export const DeleteResponse = z.object({ ...keys, deleted_at: nstr }).meta({ id: "DeleteResponse" });
export const IgnoreRequest = z.object({ ignored: z.boolean() }).strict().meta({ id: "IgnoreRequest" });
export const IgnoreResponse = z.object({ ...keys, ignored: z.boolean() }).meta({ id: "IgnoreResponse" });
export const PermanentDeleteResponse = z.object(keys).meta({ id: "PermanentDeleteResponse" });
export const ReviewResponse = z.object({ ...keys, source: z.string() }).meta({ id: "ReviewResponse" });
export const LatestTimestampResponse = z
  .object({ month: nstr, latest: nstr })
  .meta({ id: "LatestTimestampResponse" });

export const BulkCategoryUpdateItem = z
  .object({
    forwarded_to: z.string().min(1),
    date_file_name: z.string().min(1),
    category: z.string().trim().min(1).max(100),
  })
  .meta({ id: "BulkCategoryUpdateItem" });
export const BulkCategoryUpdateRequest = z
  .object({
    updates: z.array(BulkCategoryUpdateItem).min(1).max(1000),
    source: z.string().trim().min(1).max(40).default("manual_bulk"),
  })
  .strict()
  .meta({ id: "BulkCategoryUpdateRequest" });
export const BulkCategoryUpdateResult = z
  .object({
    ...keys,
    new_category: z.string(),
    ok: z.boolean(),
    old_category: nstr,
    error: nstr,
  })
  .meta({ id: "BulkCategoryUpdateResult" });
export const BulkCategoryUpdateResponse = z
  .object({
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    results: z.array(BulkCategoryUpdateResult),
  })
  .meta({ id: "BulkCategoryUpdateResponse" });

export const ManualTransactionRequest = z
  .object({
    date: calendarDate(),
    amount: z.number().positive().max(100_000_000),
    company: z.string().trim().min(1).max(500),
    category: z.string().trim().min(1).max(100).nullable().optional(),
    institution: z.string().trim().max(100).nullable().optional(),
    name: z.string().trim().max(100).nullable().optional(),
    transaction_type: z.enum(TRANSACTION_TYPES).default("purchase"),
    allow_duplicate: z
      .boolean()
      .optional()
      .describe(
        "Add it even when an identical transaction (same day, amount, merchant, type and institution) " +
          "is stored: without it such an add is refused with 409 DUPLICATE_TRANSACTION",
      ),
  })
  .strict()
  .meta({ id: "ManualTransactionRequest" });
export const ManualTransactionResponse = z
  .object({
    tx_id: z.string(),
    forwarded_to: z.string(),
    date_file_name: z.string(),
    category: z.string(),
    status: z
      .enum(["created"])
      .describe("Always `created`: an identical stored transaction is a 409 DUPLICATE_TRANSACTION instead"),
  })
  .meta({ id: "ManualTransactionResponse" });

const bool = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1")
  .default(false);

export const SearchQuery = z.object({
  from: Month.describe("Inclusive start month, YYYY-MM"),
  to: Month.describe("Inclusive end month, YYYY-MM; at most 24 months after `from`"),
  q: z.string().max(200).optional().describe("Free text across company, category, comment and institution"),
  category: z.string().max(100).optional().describe("Case-insensitive exact match"),
  institution: z.string().max(100).optional().describe("Case-insensitive exact match"),
  company: z.string().max(200).optional().describe("Case-insensitive substring match"),
  type: z.string().max(40).optional().describe("Case-insensitive exact match"),
  min_amount: z.coerce.number().optional().describe("Inclusive lower bound"),
  max_amount: z.coerce.number().optional().describe("Inclusive upper bound"),
  include_ignored: bool,
  include_deleted: bool,
});

export const SearchByFilterRequest = z
  .object({
    from_month: Month,
    to_month: Month,
    merchant_in: z.array(z.string().max(200)).max(50).nullable().optional(),
    category_in: z.array(z.string().max(100)).max(50).nullable().optional(),
    institution_in: z.array(z.string().max(100)).max(50).nullable().optional(),
    type_in: z.array(z.string().max(40)).max(10).nullable().optional(),
    min_amount: z.number().nullable().optional(),
    max_amount: z.number().nullable().optional(),
    include_ignored: z.boolean().default(false),
    include_deleted: z.boolean().default(false),
  })
  .strict()
  .meta({ id: "SearchByFilterRequest" });

export const SearchSummary = z
  .object({
    total_count: z.number().int(),
    total_amount: z.number(),
    avg_amount: z.number(),
    by_category: z.record(z.string(), z.number()),
    months_queried: z.number().int(),
  })
  .meta({ id: "SearchSummary" });
export const SearchResponse = z
  .object({
    transactions: z.array(TransactionResponse),
    summary: SearchSummary,
    capped: z.boolean(),
    total_matching: z.number().int(),
  })
  .meta({ id: "SearchResponse" });
