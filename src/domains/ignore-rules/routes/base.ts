import { domainRoute, errors } from "../../../http/route";

export const IgnoreRulesRoute = domainRoute("ignore-rules");

export const notFoundResponse = (what: string) => errors({ "404": what });
