import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute, json } from "../../../http/route";

export const TemplatesRoute = domainRoute("templates");

export const NOT_FOUND = { "404": json("No such template", ErrorEnvelope) };
