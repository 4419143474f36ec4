import { domainRoute, errors } from "../../../http/route";

export const TemplatesRoute = domainRoute("templates");

export const NOT_FOUND = errors({ "404": "No such template" });
