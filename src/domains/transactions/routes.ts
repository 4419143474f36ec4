import { domainRoute, json, ok, route } from "../../http/route";
import { ErrorEnvelope } from "../../http/errors";
import { AttachmentListResponse } from "../attachments/schemas";
import { listForTx } from "../attachments/service";
import {
  TxIdParams,
  BulkCategoryUpdateRequest,
  BulkCategoryUpdateResponse,
  CategoryUpdateRequest,
  CategoryUpdateResponse,
  CommentRequest,
  CommentResponse,
  TransactionFieldsUpdateRequest,
  TransactionFieldsUpdateResponse,
  AttentionListResponse,
  CombinedTransactionsResponse,
  MonthQuery,
  TransactionListResponse,
  ManualTransactionRequest,
  ManualTransactionResponse,
  LatestTimestampResponse,
  Month,
  TransactionDetailResponse,
  SearchByFilterRequest,
  SearchQuery,
  SearchResponse,
  DeleteRequest,
  DeleteResponse,
  IgnoreRequest,
  IgnoreResponse,
  PermanentDeleteResponse,
  ReviewResponse,
} from "./schemas";
import { contentJson } from "chanfana";
import { bulkUpdateCategory } from "./bulk";
import {
  patchTransaction,
  setComment,
  updateFields,
  combined,
  listTransactions,
  combinedMonths,
  detail,
  latest,
  markReviewed,
  permanentlyDelete,
  setIgnored,
  softDelete,
} from "./service";
import { addManual } from "./manual";
import { z } from "zod";
import { MONTH_RE } from "../../lib/month";
import { cents, exportCsv, filterFromQuery, QUERY_LOCS, search } from "./search";
import type { Filter } from "./search-rules";
import { type AppContext, serviceCtx } from "../../http/context";
import { BodyUploadEml, UploadEmlResponse } from "./upload-eml-schemas";
import { readUpload } from "../../http/upload";
import { checkEml, EML_LIMITS, uploadEml } from "./upload-eml";

export const TransactionsRoute = domainRoute("transactions");

export const ListTransactionAttachments = route(TransactionsRoute, {
  operationId: "listTransactionAttachments",
  summary: "List attachments linked to a transaction",
  request: { params: TxIdParams },
  responses: {
    ...ok(AttachmentListResponse, "The transaction's attachments, oldest first"),
    "404": json("Not a transaction id", ErrorEnvelope),
  },
  handle: async (ctx, { params }) => listForTx(ctx, params.tx_id),
});

export const BulkUpdateTransactionCategory = route(TransactionsRoute, {
  operationId: "bulkUpdateTransactionCategory",
  summary: "Recategorize many transactions at once; per-row results",
  request: { body: { ...contentJson(BulkCategoryUpdateRequest), required: true } },
  responses: ok(BulkCategoryUpdateResponse),
  handle: async (ctx, { body }) =>
    (await bulkUpdateCategory(ctx, { updates: body.updates, source: body.source })).response,
});

export const PatchTransaction = route(TransactionsRoute, {
  operationId: "patchTransaction",
  summary: "Correct the category, mark reviewed, or change state (active, ignored, trashed)",
  request: { params: TxIdParams, body: { ...contentJson(CategoryUpdateRequest), required: true } },
  responses: ok(CategoryUpdateResponse),
  handle: async (ctx, { params, body }) =>
    (await patchTransaction(ctx, { txId: params.tx_id, input: body })).response,
});

export const SetTransactionComment = route(TransactionsRoute, {
  operationId: "setTransactionComment",
  summary: "Set or clear the note on a transaction",
  request: { params: TxIdParams, body: { ...contentJson(CommentRequest), required: true } },
  responses: ok(CommentResponse),
  handle: async (ctx, { params, body }) =>
    (await setComment(ctx, { txId: params.tx_id, comment: body.comment })).response,
});

export const UpdateTransactionFields = route(TransactionsRoute, {
  operationId: "updateTransactionFields",
  summary: "Correct amount, company or type (parser mistakes)",
  request: { params: TxIdParams, body: { ...contentJson(TransactionFieldsUpdateRequest), required: true } },
  responses: ok(TransactionFieldsUpdateResponse),
  handle: async (ctx, { params, body }) =>
    (await updateFields(ctx, { txId: params.tx_id, input: body })).response,
});

export const ListTransactions = route(TransactionsRoute, {
  operationId: "listTransactions",
  summary: "A month of transactions (not deleted), newest first",
  request: { query: MonthQuery },
  responses: ok(TransactionListResponse),
  handle: async (ctx, { query }) => listTransactions(ctx, { month: query.month, kind: "active" }),
});

export const ListTrashedTransactions = route(TransactionsRoute, {
  operationId: "listTrashedTransactions",
  summary: "A month's soft-deleted transactions (the trash)",
  request: { query: MonthQuery },
  responses: ok(TransactionListResponse),
  handle: async (ctx, { query }) => listTransactions(ctx, { month: query.month, kind: "trash" }),
});

export const GetAttentionQueue = route(TransactionsRoute, {
  operationId: "getAttentionQueue",
  summary: "Transactions waiting for a person (AI-rescued rows) in a month",
  request: { query: MonthQuery },
  responses: ok(AttentionListResponse),
  handle: async (ctx, { query }) => listTransactions(ctx, { month: query.month, kind: "attention" }),
});

export const ListAllTransactions = route(TransactionsRoute, {
  operationId: "listAllTransactions",
  summary: "A month's transactions, attention queue and trash in one call",
  request: { query: MonthQuery },
  responses: ok(CombinedTransactionsResponse),
  handle: async (ctx, { query }) => combined(ctx, query.month),
});

export const AddManualTransaction = route(domainRoute("transactions"), {
  operationId: "addManualTransaction",
  summary:
    "Add a transaction by hand (cash, a missed alert); an identical one is a 409 unless allow_duplicate",
  request: { body: { ...contentJson(ManualTransactionRequest), required: true } },
  responses: {
    ...ok(ManualTransactionResponse),
    "409": json(
      "DUPLICATE_TRANSACTION: an identical transaction is stored, nothing was added; `details` holds " +
        "its `tx_id` and the stored row (`existing`). Send `allow_duplicate: true` to add it anyway.",
      ErrorEnvelope,
    ),
  },
  handle: async (ctx, { body }) => {
    const { activityId: _, ...res } = await addManual(ctx, body);
    return res;
  },
});

export const GetTransactionDetail = route(TransactionsRoute, {
  operationId: "getTransactionDetail",
  summary: "One transaction with its source email",
  request: { params: TxIdParams },
  responses: ok(TransactionDetailResponse),
  handle: async (ctx, { params }) => detail(ctx, params.tx_id),
});

export const GetLatestTransactionTimestamp = route(TransactionsRoute, {
  operationId: "getLatestTransactionTimestamp",
  summary: "When the newest transaction (of a month, or overall) was recorded",
  request: { query: z.object({ month: Month.optional() }) },
  responses: ok(LatestTimestampResponse),
  handle: async (ctx, { query }) => latest(ctx, query.month),
});

/** The distinct months of a comma-separated list, in order. */
const monthList = (s: string) => [
  ...new Set(
    s
      .split(",")
      .map((m) => m.trim())
      .filter(Boolean),
  ),
];

export const ListBulkTransactions = route(TransactionsRoute, {
  operationId: "listBulkTransactions",
  summary: "Several months at once (comma-separated YYYY-MM, at most 12)",
  request: {
    query: z.object({
      months: z
        .string()
        .min(7)
        .refine((s) => {
          const months = monthList(s);
          return months.length <= 12 && months.every((m) => MONTH_RE.test(m));
        }, "comma-separated YYYY-MM months, at most 12"),
    }),
  },
  responses: ok(z.record(z.string(), CombinedTransactionsResponse)),
  handle: async (ctx, { query }) => {
    const months = monthList(query.months);
    const out = await combinedMonths(ctx, months);
    return Object.fromEntries(out.map((r) => [r.month, r]));
  },
});

export const SearchTransactions = route(TransactionsRoute, {
  operationId: "searchTransactions",
  summary: "Search a month range; ignored and deleted rows excluded unless asked",
  request: { query: SearchQuery },
  responses: ok(SearchResponse),
  handle: async (ctx, { query }) => search(ctx, { f: filterFromQuery(query), locs: QUERY_LOCS }),
});

export const SearchTransactionsByFilter = route(TransactionsRoute, {
  operationId: "searchTransactionsByFilter",
  summary: "The same search with list filters in a JSON body (a read; not journaled)",
  request: { body: { ...contentJson(SearchByFilterRequest), required: true } },
  responses: ok(SearchResponse),
  handle: async (ctx, { body }) => {
    const f: Filter = {
      from: body.from_month,
      to: body.to_month,
      companies: body.merchant_in,
      categories: body.category_in,
      institutions: body.institution_in,
      types: body.type_in,
      minCents: cents(body.min_amount),
      maxCents: cents(body.max_amount),
      includeIgnored: body.include_ignored,
      includeDeleted: body.include_deleted,
    };
    return await search(ctx, {
      f,
      locs: { from: ["body", "from_month"], to: ["body", "to_month"] },
    });
  },
});

export const ExportTransactionsCsv = route(TransactionsRoute, {
  operationId: "exportTransactionsCsv",
  summary: "The search's matching rows as CSV (no cap)",
  request: { query: SearchQuery },
  responses: { "200": { description: "CSV file", content: { "text/csv": { schema: z.string() } } } },
  handle: async (ctx, { query }, c) => {
    const csv = await exportCsv(ctx, { f: filterFromQuery(query), locs: QUERY_LOCS });
    return c.body(csv, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="transactions_${query.from}_${query.to}.csv"`,
    });
  },
});

export const SoftDeleteTransaction = route(TransactionsRoute, {
  operationId: "softDeleteTransaction",
  summary: "Move to the trash (deleted: true) or restore (deleted: false)",
  request: { params: TxIdParams, body: { ...contentJson(DeleteRequest), required: true } },
  responses: ok(DeleteResponse),
  handle: async (ctx, { params, body }) =>
    (await softDelete(ctx, { txId: params.tx_id, deleted: body.deleted })).response,
});

export const SetTransactionIgnored = route(TransactionsRoute, {
  operationId: "setTransactionIgnored",
  summary: "Exclude from (or return to) summaries and the journal",
  request: { params: TxIdParams, body: { ...contentJson(IgnoreRequest), required: true } },
  responses: ok(IgnoreResponse),
  handle: async (ctx, { params, body }) =>
    (await setIgnored(ctx, { txId: params.tx_id, ignored: body.ignored })).response,
});

export const MarkTransactionReviewed = route(TransactionsRoute, {
  operationId: "markTransactionReviewed",
  summary: "Review-only mark: the category stays, the audit records the review",
  request: { params: TxIdParams },
  responses: ok(ReviewResponse),
  handle: async (ctx, { params }) => (await markReviewed(ctx, params.tx_id)).response,
});

export const PermanentlyDeleteTransaction = route(TransactionsRoute, {
  operationId: "permanentlyDeleteTransaction",
  summary: "Delete a trashed transaction for good (409 unless it is in the trash)",
  request: { params: TxIdParams },
  responses: ok(PermanentDeleteResponse),
  handle: async (ctx, { params }) => permanentlyDelete(ctx, params.tx_id),
});

export const IngestionRoute = domainRoute("transactions");

export class UploadEml extends IngestionRoute {
  override schema = {
    operationId: "uploadEml",
    summary: "Ingest one raw email file through the alert pipeline",
    description:
      "Runs the same pipeline as every other door: the raw is stored, parsed, categorized and " +
      "written with duplicate detection; an unreadable alert is quarantined. At most 5 MB (413 above).",
    request: {
      body: { content: { "multipart/form-data": { schema: BodyUploadEml } }, required: true },
    },
    responses: {
      "200": json("What became of the email", UploadEmlResponse),
      "413": json("File larger than 5 MB", ErrorEnvelope),
    },
  };

  override async handle(c: AppContext) {
    const bytes = checkEml((await readUpload(c.req.raw, EML_LIMITS)).bytes);
    return c.json(await uploadEml(serviceCtx(c), { bytes }));
  }
}
