import { domainRoute, errors } from "../../../http/route";

export const BlockedRoute = domainRoute("blocked-companies");

export const notFoundResponse = (what: string) => errors({ "404": what });
