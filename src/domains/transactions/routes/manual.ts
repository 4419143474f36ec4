import { contentJson } from "chanfana";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute, json, ok, route } from "../../../http/route";
import { addManual } from "../manual";
import { ManualTransactionRequest, ManualTransactionResponse } from "../schemas";

export const AddManualTransaction = route(domainRoute("transactions"), {
  operationId: "addManualTransaction",
  summary:
    "Add a transaction by hand (cash, a missed alert); an identical one is a 409 unless allow_duplicate",
  request: { body: { ...contentJson(ManualTransactionRequest), required: true } },
  responses: {
    ...ok(ManualTransactionResponse),
    "409": json(
      "DUPLICATE_TRANSACTION: an identical transaction is stored, nothing was added; `details` holds " +
        "its `tx_id` and the stored row (`existing`). Send `allow_duplicate: true` to add it anyway.",
      ErrorEnvelope,
    ),
  },
  handle: async (ctx, { body }) => {
    const { activityId: _, ...res } = await addManual(ctx, body);
    return res;
  },
});
