import { domainRoute } from "../../../http/route";

export const CardNamesRoute = domainRoute("card-names");

export const json = <T>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});
