/**
 * Tool inputs and outputs: the routes' own zod schemas (one definition of each shape), re-rooted
 * with `.extend` (MCP wants a plain object at the root, not a `$ref`) and described for a model.
 */
import { z } from "zod";
import { BudgetStatusQuery, BudgetStatusResponse } from "../budget/status-schemas";
import { IncomeStatementQuery, IncomeStatementResponse } from "../income/schemas";
import { JournalQuery, JournalResponse } from "../journal/schemas";
import { MerchantIntelligenceQuery, MerchantIntelligenceResponse } from "../merchants/schemas";
import {
  FailureIdParams,
  ListQuery,
  ManualResolveRequest,
  ManualResolveResponse,
  ParseFailureListResponse,
} from "../parse-failures/schemas";
import { SummaryQuery, SummaryResponse } from "../summary/schemas";
import {
  AttentionListResponse,
  CategoryUpdateResponse,
  CommentRequest,
  CommentResponse,
  ManualTransactionRequest,
  ManualTransactionResponse,
  Month,
  MonthQuery,
  SearchQuery,
  SearchResponse,
  TransactionDetailResponse,
  TxIdParams,
} from "../transactions/schemas";

const month = (what: string) => Month.describe(`${what}, as YYYY-MM (e.g. 2026-07)`);
const txId = z.string().min(1).describe("A transaction's `tx_id`, as returned by the other tools");
const activityId = z
  .string()
  .describe("The activity-ledger entry of this write; POST /api/v1/activity/{id}/revert undoes it");

export const tools = {
  summary: {
    input: SummaryQuery.extend({ month: month("The month to summarize") }),
    output: SummaryResponse.extend({}),
  },
  journal: {
    input: JournalQuery.extend({ month: month("The month to list day by day") }),
    output: JournalResponse.extend({}),
  },
  search: { input: SearchQuery.extend({}), output: SearchResponse.extend({}) },
  budget: { input: BudgetStatusQuery.extend({}), output: BudgetStatusResponse.extend({}) },
  merchants: { input: MerchantIntelligenceQuery.extend({}), output: MerchantIntelligenceResponse.extend({}) },
  income: { input: IncomeStatementQuery.extend({}), output: IncomeStatementResponse.extend({}) },
  attention: {
    input: MonthQuery.extend({ month: month("The month whose attention queue to list") }),
    output: AttentionListResponse.extend({}),
  },
  parseFailures: { input: ListQuery.extend({}), output: ParseFailureListResponse.extend({}) },
  transaction: { input: TxIdParams.extend({ tx_id: txId }), output: TransactionDetailResponse.extend({}) },
  setCategory: {
    input: TxIdParams.extend({
      tx_id: txId,
      category: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .describe("A category from the user's list (any case), e.g. as seen in get_summary"),
      as_rule: z
        .boolean()
        .default(false)
        .describe(
          "Also make it the merchant's rule (override), so future transactions of this merchant get it",
        ),
    }),
    output: CategoryUpdateResponse.extend({
      activity_id: activityId,
      rule: z
        .object({ company: z.string(), category: z.string(), activity_id: activityId })
        .nullable()
        .describe("The merchant rule written when `as_rule` was true"),
    }),
  },
  setComment: {
    input: TxIdParams.extend({ tx_id: txId, ...CommentRequest.shape }).strict(),
    output: CommentResponse.extend({ activity_id: activityId }),
  },
  addTransaction: {
    input: ManualTransactionRequest.extend({}),
    output: ManualTransactionResponse.extend({ activity_id: activityId }),
  },
  resolveParseFailure: {
    input: FailureIdParams.extend({
      failure_id: FailureIdParams.shape.failure_id.describe(
        "The quarantined email's id, from list_parse_failures",
      ),
      ...ManualResolveRequest.shape,
    }),
    output: ManualResolveResponse.extend({ activity_id: activityId }),
  },
};
