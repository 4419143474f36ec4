import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute, json } from "../../../http/route";

export const ParseFailuresRoute = domainRoute("parse-failures");

export const NOT_FOUND = { "404": json("No parse failure with this id", ErrorEnvelope) };
export const CONFLICT = (what: string) => ({ "409": json(what, ErrorEnvelope) });
