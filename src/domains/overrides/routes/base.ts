import { domainRoute, errors } from "../../../http/route";

export const OverridesRoute = domainRoute("overrides");

export const notFoundResponse = (what: string) => errors({ "404": what });
