import { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { MONTH_RE } from "../../../lib/month";
import {
  CombinedTransactionsResponse,
  LatestTimestampResponse,
  Month,
  TransactionDetailResponse,
  TxIdParams,
} from "../schemas";
import { combinedMonths, detail, latest } from "../service";
import { json, TransactionsRoute } from "./base";

export class GetTransactionDetail extends TransactionsRoute {
  override schema = {
    operationId: "getTransactionDetail",
    summary: "One transaction with its source email",
    request: { params: TxIdParams },
    responses: json(TransactionDetailResponse),
  };
  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await detail(serviceCtx(c), params.tx_id));
  }
}

export class GetLatestTransactionTimestamp extends TransactionsRoute {
  override schema = {
    operationId: "getLatestTransactionTimestamp",
    summary: "When the newest transaction (of a month, or overall) was recorded",
    request: { query: z.object({ month: Month.optional() }) },
    responses: json(LatestTimestampResponse),
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await latest(serviceCtx(c), query.month));
  }
}

/** The distinct months of a comma-separated list, in order. */
const monthList = (s: string) => [
  ...new Set(
    s
      .split(",")
      .map((m) => m.trim())
      .filter(Boolean),
  ),
];

export class ListBulkTransactions extends TransactionsRoute {
  override schema = {
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
    responses: json(z.record(z.string(), CombinedTransactionsResponse)),
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    const months = monthList(query.months);
    const out = await combinedMonths(serviceCtx(c), months);
    return c.json(Object.fromEntries(out.map((r) => [r.month, r])));
  }
}
