import { ok, route } from "../../../http/route";
import {
  AttentionListResponse,
  CombinedTransactionsResponse,
  MonthQuery,
  TransactionListResponse,
} from "../schemas";
import { combined, listTransactions } from "../service";
import { TransactionsRoute } from "./base";

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
