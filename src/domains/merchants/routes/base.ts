import { domainRoute } from "../../../http/route";

export const MerchantsRoute = domainRoute("merchants");

export const json = <T>(schema: T, description = "OK") => ({
  "200": { description, content: { "application/json": { schema } } },
});
