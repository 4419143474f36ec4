import { json, route } from "../../../http/route";
import { CardNamesResponse } from "../schemas";
import { getCardNames } from "../service";
import { CardNamesRoute } from "./base";

export const GetCardNames = route(CardNamesRoute, {
  operationId: "getCardNames",
  summary: "The card-name mapping: which cardholder an alert's card digits name",
  responses: { "200": json("The mapping", CardNamesResponse) },
  handle: async (ctx) => getCardNames(ctx),
});
