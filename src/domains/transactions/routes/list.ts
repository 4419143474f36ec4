import { type AppContext, serviceCtx } from "../../../http/context";
import {
  AttentionListResponse,
  CombinedTransactionsResponse,
  MonthQuery,
  TransactionListResponse,
} from "../schemas";
import { combined, listTransactions } from "../service";
import { json, TransactionsRoute } from "./base";

export class ListTransactions extends TransactionsRoute {
  override schema = {
    operationId: "listTransactions",
    summary: "A month of transactions (not deleted), newest first",
    request: { query: MonthQuery },
    responses: json(TransactionListResponse),
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listTransactions(serviceCtx(c), { month: query.month, kind: "active" }));
  }
}

export class ListTrashedTransactions extends TransactionsRoute {
  override schema = {
    operationId: "listTrashedTransactions",
    summary: "A month's soft-deleted transactions (the trash)",
    request: { query: MonthQuery },
    responses: json(TransactionListResponse),
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listTransactions(serviceCtx(c), { month: query.month, kind: "trash" }));
  }
}

export class GetAttentionQueue extends TransactionsRoute {
  override schema = {
    operationId: "getAttentionQueue",
    summary: "Transactions waiting for a person (AI-rescued rows) in a month",
    request: { query: MonthQuery },
    responses: json(AttentionListResponse),
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listTransactions(serviceCtx(c), { month: query.month, kind: "attention" }));
  }
}

export class ListAllTransactions extends TransactionsRoute {
  override schema = {
    operationId: "listAllTransactions",
    summary: "A month's transactions, attention queue and trash in one call",
    request: { query: MonthQuery },
    responses: json(CombinedTransactionsResponse),
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await combined(serviceCtx(c), query.month));
  }
}
