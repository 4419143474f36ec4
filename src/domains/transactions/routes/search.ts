import { contentJson } from "chanfana";
import { z } from "zod";
import { ok, route } from "../../../http/route";
import { SearchByFilterRequest, SearchQuery, SearchResponse } from "../schemas";
import { cents, exportCsv, filterFromQuery, QUERY_LOCS, search } from "../search";
import type { Filter } from "../search-rules";
import { TransactionsRoute } from "./base";

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
