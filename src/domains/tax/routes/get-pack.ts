import { json, route } from "../../../http/route";
import { TaxPackResponse, TaxYearQuery } from "../schemas";
import { getTaxPack } from "../service";
import { TaxRoute } from "./base";

export const GetTaxPack = route(TaxRoute, {
  operationId: "getTaxPack",
  summary: "Calendar-year tax pack: claim-line totals with per-transaction evidence",
  description:
    "Spending-type rows of the year (by the local-time DateFileName), bucketed by lowercased category " +
    "into the mapped lines; membership = (category-derived ∪ included) − excluded. Excluded derived rows " +
    "are listed under `excluded_transactions` and do not count. Evidence per row: `receipt` (a linked " +
    "receipt-kind attachment) beats `statement` (StatementSource) beats `email` (the source alert). " +
    "`other` (Other claimable) appears only when populated.",
  request: { query: TaxYearQuery },
  responses: { "200": json("The year's lines", TaxPackResponse) },
  handle: async (ctx, { query }) => getTaxPack(ctx, query.year),
});
