import { json, route } from "../../../http/route";
import { ErrorEnvelope } from "../../../http/errors";
import { BankAlertResponse, IgnoredIdParams } from "../schemas";
import { sendToReview } from "../service";
import { IgnoredEmailsRoute, NOT_FOUND } from "./base";

export const SendIgnoredToReview = route(IgnoredEmailsRoute, {
  operationId: "sendIgnoredEmailToReview",
  summary: "This was a bank alert: its sender counts as an alert sender and the email goes to Needs review",
  request: { params: IgnoredIdParams },
  responses: {
    "200": json("Sent through the pipeline again", BankAlertResponse),
    ...NOT_FOUND,
    "409": json("No sender address, or the original email is gone", ErrorEnvelope),
  },
  handle: async (ctx, { params }) => sendToReview(ctx, params.ignored_id),
});
