import { domainRoute } from "../../../http/route";

export const MerchantsRoute = domainRoute("merchants");
