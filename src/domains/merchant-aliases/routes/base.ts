import { domainRoute, errors } from "../../../http/route";

export const AliasRoute = domainRoute("merchant-aliases");

export const NOT_FOUND = errors({ "404": "No alias for this raw name (case-insensitive)" });
