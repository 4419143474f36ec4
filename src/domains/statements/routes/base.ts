import { domainRoute, errors } from "../../../http/route";

export const StatementsRoute = domainRoute("statements");

export const NOT_FOUND = errors({ "404": "No statement (or row) with this id" });
export const CONFLICT = errors({ "409": "The row was already settled by an import" });
