import { domainRoute, json, route } from "../../http/route";
import { CardNamesResponse, CardNameMapping } from "./schemas";
import { getCardNames, putCardNames } from "./service";

export const CardNamesRoute = domainRoute("card-names");

export const GetCardNames = route(CardNamesRoute, {
  operationId: "getCardNames",
  summary: "The card-name mapping: which cardholder an alert's card digits name",
  responses: { "200": json("The mapping", CardNamesResponse) },
  handle: async (ctx) => getCardNames(ctx),
});

export const PutCardNames = route(CardNamesRoute, {
  operationId: "putCardNames",
  summary: "Replace the card-name mapping (applies to alerts read from now on)",
  request: { body: { content: { "application/json": { schema: CardNameMapping } } } },
  responses: { "200": json("The mapping as stored", CardNamesResponse) },
  handle: async (ctx, { body }) => (await putCardNames(ctx, body)).response,
});
