import { contentJson } from "chanfana";
import { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { Month } from "../schemas";
import { exportCsv, search } from "../search";
import type { Filter } from "../search-rules";
import { checkRange } from "../search-rules";
import { TransactionResponse } from "../schemas";
import { json, SearchRoute } from "./base";

const bool = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1")
  .default(false);

export const SearchQuery = z.object({
  from: Month.describe("Inclusive start month, YYYY-MM"),
  to: Month.describe("Inclusive end month, YYYY-MM; at most 24 months after `from`"),
  q: z.string().max(200).optional().describe("Free text across company, category, comment and institution"),
  category: z.string().max(100).optional().describe("Case-insensitive exact match"),
  institution: z.string().max(100).optional().describe("Case-insensitive exact match"),
  company: z.string().max(200).optional().describe("Case-insensitive substring match"),
  type: z.string().max(40).optional().describe("Case-insensitive exact match"),
  min_amount: z.coerce.number().optional().describe("Inclusive lower bound"),
  max_amount: z.coerce.number().optional().describe("Inclusive upper bound"),
  include_ignored: bool,
  include_deleted: bool,
});

export const SearchByFilterRequest = z
  .object({
    from_month: Month,
    to_month: Month,
    merchant_in: z.array(z.string().max(200)).max(50).nullable().optional(),
    category_in: z.array(z.string().max(100)).max(50).nullable().optional(),
    institution_in: z.array(z.string().max(100)).max(50).nullable().optional(),
    type_in: z.array(z.string().max(40)).max(10).nullable().optional(),
    min_amount: z.number().nullable().optional(),
    max_amount: z.number().nullable().optional(),
    include_ignored: z.boolean().default(false),
    include_deleted: z.boolean().default(false),
  })
  .strict()
  .meta({ id: "SearchByFilterRequest" });

export const SearchSummary = z
  .object({
    total_count: z.number().int(),
    total_amount: z.number(),
    avg_amount: z.number(),
    by_category: z.record(z.string(), z.number()),
    months_queried: z.number().int(),
  })
  .meta({ id: "SearchSummary" });
export const SearchResponse = z
  .object({
    transactions: z.array(TransactionResponse),
    summary: SearchSummary,
    capped: z.boolean(),
    total_matching: z.number().int(),
  })
  .meta({ id: "SearchResponse" });

const one = (v: string | undefined) => (v ? [v] : null);

function fromQuery(q: z.infer<typeof SearchQuery>): Filter {
  const f: Filter = {
    from: q.from,
    to: q.to,
    q: q.q ?? null,
    companies: one(q.company),
    categories: one(q.category),
    institutions: one(q.institution),
    types: one(q.type),
    minAmount: q.min_amount ?? null,
    maxAmount: q.max_amount ?? null,
    includeIgnored: q.include_ignored,
    includeDeleted: q.include_deleted,
  };
  checkRange(f, ["query", "from"], ["query", "to"]);
  return f;
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
    return c.json(await search(serviceCtx(c), fromQuery(query)));
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
      minAmount: body.min_amount,
      maxAmount: body.max_amount,
      includeIgnored: body.include_ignored,
      includeDeleted: body.include_deleted,
    };
    checkRange(f, ["body", "from_month"], ["body", "to_month"]);
    return c.json(await search(serviceCtx(c), f));
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
    const csv = await exportCsv(serviceCtx(c), fromQuery(query));
    return c.body(csv, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="transactions_${query.from}_${query.to}.csv"`,
    });
  }
}
