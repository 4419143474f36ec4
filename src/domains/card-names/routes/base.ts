import { domainRoute, json } from "../../../http/route";

export const CardNamesRoute = domainRoute("card-names");
