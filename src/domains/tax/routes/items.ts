import { errors, route } from "../../../http/route";
import { TaxOverrideRequest, TaxTxIdParam } from "../schemas";
import { clearOverride, setOverride } from "../service";
import { TaxRoute } from "./base";

export const SetTaxOverride = route(TaxRoute, {
  operationId: "setTaxOverride",
  summary: "Force a transaction into a claim line, or exclude it from one",
  description:
    "Upserts the transaction's one override. `include` needs `line_key` (a line key or `other`); an " +
    "include of an unmapped category lands in Other claimable. Spending-type rows only. Journaled and " +
    "reversible. Disabled in demo mode.",
  request: { body: { content: { "application/json": { schema: TaxOverrideRequest } }, required: true } },
  responses: { "204": { description: "Saved" }, ...errors({ "404": "No such transaction" }) },
  handle: async (ctx, { body }, c) => {
    await setOverride(ctx, body);
    return c.body(null, 204);
  },
});

export const ClearTaxOverride = route(TaxRoute, {
  operationId: "clearTaxOverride",
  summary: "Clear a per-transaction tax override",
  description:
    "Removes the manual include or restores the excluded row. Journaled and reversible. Disabled in demo mode.",
  request: { params: TaxTxIdParam },
  responses: {
    "204": { description: "Cleared" },
    ...errors({ "404": "No override for this transaction" }),
  },
  handle: async (ctx, { params }, c) => {
    await clearOverride(ctx, params.tx_id);
    return c.body(null, 204);
  },
});
