import { domainRoute } from "../../../http/route";

export const CardNamesRoute = domainRoute("card-names");
