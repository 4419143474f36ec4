import { type AppContext, serviceCtx } from "../../../http/context";
import { TaxLinesResponse } from "../schemas";
import { taxLines } from "../service";
import { TaxRoute, json } from "./base";

export class GetTaxLines extends TaxRoute {
  override schema = {
    operationId: "getTaxLines",
    summary: "Selectable claim lines for the include-override picker",
    description: "The mapped lines plus the synthetic `other` line, as `{key, label}`.",
    responses: { "200": json("The lines", TaxLinesResponse) },
  };

  override async handle(c: AppContext) {
    return c.json(await taxLines(serviceCtx(c)));
  }
}
