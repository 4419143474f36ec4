import { domainRoute, json, route } from "../../http/route";
import { IncomeStatementQuery, IncomeStatementResponse } from "./schemas";
import { getIncomeStatement } from "./service";

export const GetIncomeStatement = route(domainRoute("income"), {
  operationId: "getIncomeStatement",
  summary: "Annual income vs. expenses view with projection and savings rate",
  description:
    "Income by company (e-transfer and deposit types) and expenses by category (spending types), " +
    "grouped into sections by the year's budget category types, with monthly and annual net, " +
    "savings rates and a projection of the months begun so far. Deleted and ignored rows are excluded.",
  request: { query: IncomeStatementQuery },
  responses: {
    "200": json("OK", IncomeStatementResponse),
  },
  handle: async (ctx, { query }) => getIncomeStatement(ctx, query),
});
