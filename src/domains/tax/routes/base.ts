import { domainRoute } from "../../../http/route";

export const TaxRoute = domainRoute("tax");
