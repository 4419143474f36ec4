import { z } from "zod";
import { ok, route } from "../../../http/route";
import { MONTH_RE } from "../../../lib/month";
import {
  CombinedTransactionsResponse,
  LatestTimestampResponse,
  Month,
  TransactionDetailResponse,
  TxIdParams,
} from "../schemas";
import { combinedMonths, detail, latest } from "../service";
import { TransactionsRoute } from "./base";

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
