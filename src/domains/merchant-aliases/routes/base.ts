import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute, json } from "../../../http/route";

export const AliasRoute = domainRoute("merchant-aliases");

export const NOT_FOUND = { "404": json("No alias for this raw name (case-insensitive)", ErrorEnvelope) };
