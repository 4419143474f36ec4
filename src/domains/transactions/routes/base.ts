import { domainRoute } from "../../../http/route";

export const TransactionsRoute = domainRoute("transactions");
export const SearchRoute = domainRoute("transactions");

export const json = <T>(schema: T, description = "OK") => ({
  "200": { description, content: { "application/json": { schema } } },
});
