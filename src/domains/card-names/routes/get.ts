import { type AppContext, serviceCtx } from "../../../http/context";
import { CardNamesResponse } from "../schemas";
import { getCardNames } from "../service";
import { CardNamesRoute, json } from "./base";

export class GetCardNames extends CardNamesRoute {
  override schema = {
    operationId: "getCardNames",
    summary: "The card-name mapping: which cardholder an alert's card digits name",
    responses: { "200": json("The mapping", CardNamesResponse) },
  };

  override async handle(c: AppContext) {
    return c.json(await getCardNames(serviceCtx(c)));
  }
}
