import { domainRoute, errors } from "../../../http/route";

export const ParseFailuresRoute = domainRoute("parse-failures");

export const NOT_FOUND = errors({ "404": "No parse failure with this id" });
export const CONFLICT = (what: string) => errors({ "409": what });
