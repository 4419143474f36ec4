/** Request and response shapes of the statement routes (names follow the reference schema). */
import { z } from "zod";

const TxType = z.enum(["withdrawal", "deposit"]);
export const ActionEnum = z.enum(["import", "skip", "enrich", "update"]);
const Tier = z.enum(["matched", "ambiguous", "suspected_duplicate", "new", "previously_imported"]);
const Status = z.enum(["pending_review", "in_progress", "complete"]);
const nstr = z.string().nullable();

export const BodyUploadStatement = z
  .object({ file: z.string().meta({ format: "binary", contentMediaType: "application/octet-stream" }) })
  .meta({
    id: "Body_uploadStatement",
    description: "A statement: PDF, CSV, OFX, QFX, QIF or CAMT.053 XML, at most 10 MB and 10,000 rows.",
  });

export const RawStatementTxn = z
  .object({
    date: z.string(),
    description: z.string(),
    amount: z.number(),
    type: TxType,
    balance: z.number().nullable(),
  })
  .meta({ id: "RawStatementTxn" });

export const StatementDbMatch = z
  .object({
    forwarded_to: z.string(),
    date_file_name: z.string(),
    company: nstr,
    amount: z.number().nullable(),
    category: nstr,
  })
  .meta({ id: "StatementDbMatch" });
export const StatementDbMatchWithType = StatementDbMatch.extend({ transaction_type: nstr }).meta({
  id: "StatementDbMatchWithType",
});

export const StatementTransaction = RawStatementTxn.extend({ cleaned_description: z.string() }).meta({
  id: "StatementTransaction",
});

const BalanceCheck = z
  .object({
    ok: z.boolean().describe("Opening + rows reached every printed balance and the closing balance"),
    checked: z
      .boolean()
      .describe(
        "False when nothing could be checked (the rows carry no balance: no opening, closing or printed " +
          "balance; or the rows were read by AI): `ok` is then false without the rows being shown wrong",
      ),
    opening: z.number().nullable(),
    closing: z.number().nullable(),
    warnings: z.array(z.string()),
  })
  .meta({ id: "StatementBalanceCheck" });

export const StatementMetadata = z
  .object({
    institution: z.string(),
    account_type: z.string(),
    period_start: nstr,
    period_end: nstr,
    transaction_count: z.number().int(),
    parsed_with_ai: z.boolean().default(false),
    account: nstr
      .optional()
      .describe("Which account of a multi-account file: its name or the last digits of its number"),
  })
  .meta({ id: "StatementMetadata" });

const OtherStatement = z
  .object({
    statement_id: z.string(),
    account: nstr,
    account_type: z.string(),
    transaction_count: z.number().int(),
  })
  .meta({ id: "StatementOtherAccount", description: "Another account's statement read from the same file" });

const itemBase = {
  index: z.number().int(),
  row_id: z.string(),
  statement_txn: RawStatementTxn,
  cleaned_description: z.string(),
  raw_description: z.string(),
  suggested_category: z.string(),
};
export const MatchedItem = z
  .object({ ...itemBase, db_match: StatementDbMatch, company_differs: z.boolean() })
  .meta({ id: "MatchedItem" });
export const AmbiguousItem = z
  .object({ ...itemBase, candidates: z.array(StatementDbMatch), reason: z.string(), enrichable: z.boolean() })
  .meta({ id: "AmbiguousItem" });
export const SuspectedDuplicateItem = z
  .object({ ...itemBase, db_match: StatementDbMatchWithType, reason: z.string() })
  .meta({ id: "SuspectedDuplicateItem" });
export const NewItem = z.object(itemBase).meta({ id: "NewItem" });
export const PreviouslyImportedItem = z
  .object({ ...itemBase, db_match: StatementDbMatch })
  .meta({ id: "PreviouslyImportedItem" });

const counts = {
  total_parsed: z.number().int(),
  matched_count: z.number().int(),
  ambiguous_count: z.number().int(),
  suspected_duplicate_count: z.number().int(),
  new_count: z.number().int(),
  previously_imported_count: z.number().int(),
  imported_count: z.number().int(),
  enriched_count: z.number().int(),
  updated_count: z.number().int(),
  skipped_count: z.number().int(),
  duplicate_count: z.number().int(),
};
export const ReconcileSummary = z.object(counts).meta({ id: "ReconcileSummary" });

const Capture = z.object({ caught: z.number().int(), total: z.number().int(), rate: z.number() }).meta({
  id: "StatementCapture",
  description: "Rows of this statement an alert email had already captured",
});

export const StatementUploadResponse = z
  .object({
    statement_id: z.string(),
    transactions: z.array(StatementTransaction),
    metadata: StatementMetadata,
    matched: z.array(MatchedItem),
    ambiguous: z.array(AmbiguousItem),
    suspected_duplicates: z.array(SuspectedDuplicateItem),
    new: z.array(NewItem),
    previously_imported: z.array(PreviouslyImportedItem),
    summary: ReconcileSummary,
    balance_check: BalanceCheck,
    other_statements: z
      .array(OtherStatement)
      .describe("The file's other accounts, each kept as its own statement for review (OFX, QIF, CAMT)"),
  })
  .meta({ id: "StatementUploadResponse" });

const col = z.number().int().min(0).max(200);
export const CsvMappingSchema = z
  .object({
    date: col,
    description: col,
    amount: col.nullable().describe("One signed amount column (null: withdrawal and deposit columns)"),
    withdrawal: col.nullable(),
    deposit: col.nullable(),
    balance: col.nullable(),
    date_order: z.enum(["mdy", "dmy", "ymd"]),
    negative_is: z.enum(["withdrawal", "deposit"]).describe("What a negative signed amount means"),
    direction: col
      .nullable()
      .optional()
      .describe("A column of debit/credit words giving the direction of an unsigned amount"),
    has_header: z.boolean().optional().describe("false: the file's first row is a transaction, not a header"),
  })
  .meta({ id: "StatementCsvMapping", description: "Columns by index in the CSV's header row" });
const CsvPreviewRow = z
  .object({
    cells: z.array(z.string()),
    date: nstr.describe("The row's date as read with the mapping (null: not read)"),
    amount: z.number().nullable().describe("Signed: negative is money out (null: no amount read)"),
  })
  .meta({ id: "StatementCsvPreviewRow" });
export const CsvState = z
  .object({
    header: z.array(z.string()),
    mapping: CsvMappingSchema,
    confirmed: z.boolean(),
    preview: z.array(CsvPreviewRow).optional().describe("The first rows with their dates and signed amounts"),
    refused: z
      .string()
      .optional()
      .describe("Why the header was not understood (no rows read until the columns are confirmed)"),
    sign: z
      .object({
        card: z.boolean().describe("true: read as a card's (purchases printed positive are money out)"),
        weak: z.boolean().describe("The file's evidence is thin: the review offers the other reading"),
        because: z.string().describe("The evidence, in words"),
      })
      .optional()
      .describe(
        "How the reader decided the signed amounts' direction (absent once the columns are confirmed)",
      ),
  })
  .meta({ id: "StatementCsvState" });
export const CsvMappingRequest = z
  .object({ institution: z.string().trim().min(1).max(60), mapping: CsvMappingSchema })
  .meta({ id: "StatementCsvMappingRequest" });

const summaryFields = {
  id: z.string(),
  filename: z.string(),
  institution: z.string(),
  account_type: z.string(),
  period_start: nstr,
  period_end: nstr,
  uploaded_at: z.string(),
  updated_at: z.string(),
  completed_at: nstr,
  parsed_with_ai: z.boolean(),
  status: Status,
  ...counts,
  file_kind: z.string(),
  balance_check: BalanceCheck,
  capture: Capture,
  csv_mapping: CsvState.nullable().describe(
    "CSV only: the columns the rows were read with, and whether a person confirmed them",
  ),
};
export const StatementSummaryItem = z.object(summaryFields).meta({ id: "StatementSummaryItem" });
export const StatementListResponse = z
  .object({ statements: z.array(StatementSummaryItem), count: z.number().int() })
  .meta({ id: "StatementListResponse" });

export const StatementTransactionItem = z
  .object({
    tx_index: z.number().int(),
    row_id: z.string(),
    reconcile_tier: Tier,
    date: z.string(),
    raw_description: z.string(),
    cleaned_description: z.string(),
    amount: z.number(),
    type: z.string(),
    balance: z.number().nullable(),
    db_forwarded_to: nstr,
    db_date_file_name: nstr,
    db_company: nstr,
    db_amount: z.number().nullable(),
    db_category: nstr,
    db_transaction_type: nstr,
    company_differs: z.boolean(),
    enrichable: z.boolean(),
    reason: nstr,
    transfer: z
      .boolean()
      .describe(
        "Looks like a transfer between own accounts or a card payment (`reason` says why); defaults to skip",
      ),
    candidates: z.array(StatementDbMatch).nullable(),
    suggested_category: z.string(),
    action: z.string(),
    edited_company: nstr,
    edited_category: nstr,
    action_result: nstr,
    acted_at: nstr,
  })
  .meta({ id: "StatementTransactionItem" });

export const StatementDetailResponse = z
  .object({ ...summaryFields, transactions: z.array(StatementTransactionItem) })
  .meta({ id: "StatementDetailResponse" });

export const StatementDeleteResponse = z.object({ ok: z.boolean() }).meta({ id: "StatementDeleteResponse" });

const editFields = {
  action: ActionEnum,
  category: z.string().trim().min(1).max(100).nullable().optional(),
  company: z.string().trim().min(1).max(200).nullable().optional(),
};
export const TransactionActionUpdate = z.object(editFields).meta({ id: "TransactionActionUpdate" });
export const TransactionActionUpdateResponse = z
  .object({ ok: z.boolean(), tx_index: z.number().int(), row_id: z.string(), action: z.string() })
  .meta({ id: "TransactionActionUpdateResponse" });

export const BulkActionUpdateItem = z
  .object({ tx_index: z.number().int().min(0), ...editFields })
  .meta({ id: "BulkActionUpdateItem" });
export const BulkTransactionUpdate = z
  .object({ updates: z.array(BulkActionUpdateItem).min(1).max(2000) })
  .meta({ id: "BulkTransactionUpdate" });
export const BulkTransactionUpdateResponse = z
  .object({ ok: z.boolean(), updated: z.number().int() })
  .meta({ id: "BulkTransactionUpdateResponse" });

export const ImportAction = z
  .object({
    index: z.number().int().min(0),
    ...editFields,
    date_file_name: nstr.optional(),
    forwarded_to: nstr.optional(),
  })
  .meta({ id: "ImportAction" });
export const ImportRequest = z
  .object({
    statement_id: z.string().min(1).max(100).nullable().optional(),
    actions: z.array(ImportAction).max(2000).default([]),
    metadata: StatementMetadata.optional(),
    transactions: z.array(StatementTransaction).max(20_000).optional(),
    filename: z.string().max(200).optional(),
  })
  .meta({
    id: "ImportRequest",
    description:
      "Executes the statement's settled actions; `actions` (by tx_index) change rows first. Without " +
      "`statement_id`, `metadata` and `transactions` (the rows as an upload returned them) make a new " +
      "statement first, reconciled like an upload, and `actions` index into `transactions`.",
  });
export const ImportResponse = z
  .object({
    statement_id: z.string(),
    status: Status,
    imported: z.number().int(),
    skipped: z.number().int(),
    duplicates: z.number().int(),
    enriched: z.number().int(),
    updated: z.number().int(),
  })
  .meta({ id: "ImportResponse" });

export const StatementIdParams = z.object({ statement_id: z.string().min(1).max(100) });
export const RowParams = StatementIdParams.extend({
  tx_index: z.string().min(1).max(100).describe("The row's tx_index (or its row_id)"),
});

export type StatementUploadResponse = z.infer<typeof StatementUploadResponse>;
export type StatementSummaryItem = z.infer<typeof StatementSummaryItem>;
export type StatementDetailResponse = z.infer<typeof StatementDetailResponse>;
export type StatementTransactionItem = z.infer<typeof StatementTransactionItem>;
export type ImportRequest = z.infer<typeof ImportRequest>;
export type ImportResponse = z.infer<typeof ImportResponse>;
export type RowEdit = z.infer<typeof TransactionActionUpdate>;
