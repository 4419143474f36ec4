/** The read tools: each calls the service verb its GET route calls, with the route's shapes. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getBudgetStatus } from "../../budget/status";
import { getIncomeStatement } from "../../income/service";
import { getJournal } from "../../journal/service";
import { getMerchantIntelligence } from "../../merchants/service";
import { listParseFailures } from "../../parse-failures/service";
import { getSummary } from "../../summary/service";
import { filterFromQuery, QUERY_LOCS, search } from "../../transactions/search";
import { detail, listTransactions } from "../../transactions/service";
import type { ToolContext } from "../context";
import { tools } from "../schemas";
import { register } from "./define";

const AMOUNTS = "Amounts are decimal currency units (not cents).";

export function registerReadTools(server: McpServer, { ctx }: ToolContext) {
  register(server, {
    name: "get_summary",
    title: "Monthly summary",
    description:
      "A month's spending: total, by category and by merchant, month-over-month deltas, anomalies and " +
      `(for the current month) the pace against budget. Start here for "how much did we spend". ${AMOUNTS}`,
    ...tools.summary,
    run: (a) => getSummary(ctx, a.month),
  });
  register(server, {
    name: "get_journal",
    title: "Journal of a month",
    description:
      "A month as days, newest first: each day's transactions and total, the running month-to-date " +
      `spend and the month's budget ceiling. ${AMOUNTS}`,
    ...tools.journal,
    run: (a) => getJournal(ctx, a.month),
  });
  register(server, {
    name: "search_transactions",
    title: "Search transactions",
    description:
      "Transactions over a month range (at most 24 months) with optional filters: free text `q`, " +
      "category, institution, merchant (`company`, substring), type and amount bounds. Returns the rows " +
      "(capped; see `capped`) and a summary with totals by category. Ignored and deleted rows are left " +
      `out unless asked for. Use it for "since the summer"-style questions. ${AMOUNTS}`,
    ...tools.search,
    run: (a) => search(ctx, { f: filterFromQuery(a), locs: QUERY_LOCS }),
  });
  register(server, {
    name: "get_budget_status",
    title: "Budget status",
    description:
      "A year's budget pace: year-to-date spend against each category's target and the elapsed part of " +
      `the year, by category and group, with last year's totals to compare. ${AMOUNTS}`,
    ...tools.budget,
    run: (a) => getBudgetStatus(ctx, { year: a.year, compareYear: a.compare_year }),
  });
  register(server, {
    name: "get_merchants",
    title: "Merchant intelligence",
    description:
      "Per-merchant analysis over a window of months: recurring charges (subscriptions, bills), price " +
      `changes, new and churned merchants and the committed monthly burn rate. ${AMOUNTS}`,
    ...tools.merchants,
    run: (a) => getMerchantIntelligence(ctx, a),
  });
  register(server, {
    name: "get_income_statement",
    title: "Income statement",
    description:
      "A calendar year's income (by payer) against expenses (by category), month by month, with net, " +
      `savings rate and a projection for the rest of the year. ${AMOUNTS}`,
    ...tools.income,
    run: (a) => getIncomeStatement(ctx, a),
  });
  register(server, {
    name: "list_attention",
    title: "Attention queue",
    description:
      "A month's transactions waiting for a person to check them (rows the AI rescued or was unsure " +
      "about). Each can be settled with set_category.",
    ...tools.attention,
    run: (a) => listTransactions(ctx, { month: a.month, kind: "attention" }),
  });
  register(server, {
    name: "list_parse_failures",
    title: "Quarantined emails",
    description:
      "Bank alert emails that could not be read into a transaction (the quarantine), newest first; " +
      "without `status` every status but dismissed. One can be settled with resolve_parse_failure.",
    ...tools.parseFailures,
    run: (a) => listParseFailures(ctx, { status: a.status ?? null, limit: a.limit ?? 100 }),
  });
  register(server, {
    name: "get_transaction",
    title: "Transaction detail",
    description: "One transaction by `tx_id` with the alert email it came from (subject, sender, body).",
    ...tools.transaction,
    run: (a) => detail(ctx, a.tx_id),
  });
}
