import { json, route } from "../../../http/route";
import { TaxLinesResponse } from "../schemas";
import { taxLines } from "../service";
import { TaxRoute } from "./base";

export const GetTaxLines = route(TaxRoute, {
  operationId: "getTaxLines",
  summary: "Selectable claim lines for the include-override picker",
  description: "The mapped lines plus the synthetic `other` line, as `{key, label}`.",
  responses: { "200": json("The lines", TaxLinesResponse) },
  handle: async (ctx) => taxLines(ctx),
});
