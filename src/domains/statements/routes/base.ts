import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute, json } from "../../../http/route";

export const StatementsRoute = domainRoute("statements");

export const NOT_FOUND = { "404": json("No statement (or row) with this id", ErrorEnvelope) };
export const CONFLICT = { "409": json("The row was already settled by an import", ErrorEnvelope) };
