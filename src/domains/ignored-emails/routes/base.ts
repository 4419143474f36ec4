import { domainRoute, errors } from "../../../http/route";

export const IgnoredEmailsRoute = domainRoute("ignored-emails");

export const NOT_FOUND = errors({ "404": "No ignored email with this id" });
