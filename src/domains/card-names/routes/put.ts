import { json, route } from "../../../http/route";
import { CardNameMapping, CardNamesResponse } from "../schemas";
import { putCardNames } from "../service";
import { CardNamesRoute } from "./base";

export const PutCardNames = route(CardNamesRoute, {
  operationId: "putCardNames",
  summary: "Replace the card-name mapping (applies to alerts read from now on)",
  request: { body: { content: { "application/json": { schema: CardNameMapping } } } },
  responses: { "200": json("The mapping as stored", CardNamesResponse) },
  handle: async (ctx, { body }) => (await putCardNames(ctx, body)).response,
});
