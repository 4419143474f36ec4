import { type AppContext, serviceCtx } from "../../../http/context";
import { CardNameMapping, CardNamesResponse } from "../schemas";
import { putCardNames } from "../service";
import { CardNamesRoute, json } from "./base";

export class PutCardNames extends CardNamesRoute {
  override schema = {
    operationId: "putCardNames",
    summary: "Replace the card-name mapping (applies to alerts read from now on)",
    request: { body: { content: { "application/json": { schema: CardNameMapping } } } },
    responses: { "200": json("The mapping as stored", CardNamesResponse) },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const out = await putCardNames(serviceCtx(c), body);
    return c.json(out.response);
  }
}
