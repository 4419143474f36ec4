import { domainRoute } from "../../../http/route";

export const TransactionsRoute = domainRoute("transactions");
