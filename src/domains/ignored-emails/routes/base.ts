import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute, json } from "../../../http/route";

export const IgnoredEmailsRoute = domainRoute("ignored-emails");

export const NOT_FOUND = { "404": json("No ignored email with this id", ErrorEnvelope) };
