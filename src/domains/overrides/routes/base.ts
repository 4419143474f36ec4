import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute, json } from "../../../http/route";

export const OverridesRoute = domainRoute("overrides");

export const notFoundResponse = (what: string) => ({ "404": json(what, ErrorEnvelope) });
