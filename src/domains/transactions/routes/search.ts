import { contentJson } from "chanfana";
import { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { toCents } from "../../../lib/money";
import { SearchByFilterRequest, SearchQuery, SearchResponse } from "../schemas";
import { exportCsv, type FilterLocs, search } from "../search";
import type { Filter } from "../search-rules";
import { json, SearchRoute } from "./base";

const one = (v: string | undefined) => (v ? [v] : null);
/** The API's decimal bounds, in cents. */
const cents = (v: number | null | undefined) => (v == null ? null : toCents(v));
const QUERY_LOCS: FilterLocs = { from: ["query", "from"], to: ["query", "to"] };

function fromQuery(q: z.infer<typeof SearchQuery>): Filter {
  return {
    from: q.from,
    to: q.to,
    q: q.q ?? null,
    companies: one(q.company),
    categories: one(q.category),
    institutions: one(q.institution),
    types: one(q.type),
    minCents: cents(q.min_amount),
    maxCents: cents(q.max_amount),
    includeIgnored: q.include_ignored,
    includeDeleted: q.include_deleted,
  };
}

export class SearchTransactions extends SearchRoute {
  override schema = {
    operationId: "searchTransactions",
    summary: "Search a month range; ignored and deleted rows excluded unless asked",
    request: { query: SearchQuery },
    responses: json(SearchResponse),
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await search(serviceCtx(c), fromQuery(query), QUERY_LOCS));
  }
}

export class SearchTransactionsByFilter extends SearchRoute {
  override schema = {
    operationId: "searchTransactionsByFilter",
    summary: "The same search with list filters in a JSON body (a read; not journaled)",
    request: { body: { ...contentJson(SearchByFilterRequest), required: true } },
    responses: json(SearchResponse),
  };
  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
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
    return c.json(await search(serviceCtx(c), f, { from: ["body", "from_month"], to: ["body", "to_month"] }));
  }
}

export class ExportTransactionsCsv extends SearchRoute {
  override schema = {
    operationId: "exportTransactionsCsv",
    summary: "The search's matching rows as CSV (no cap)",
    request: { query: SearchQuery },
    responses: { "200": { description: "CSV file", content: { "text/csv": { schema: z.string() } } } },
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    const csv = await exportCsv(serviceCtx(c), fromQuery(query), QUERY_LOCS);
    return c.body(csv, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="transactions_${query.from}_${query.to}.csv"`,
    });
  }
}
