import { domainRoute, errors, json, route } from "../../http/route";
import { ErrorEnvelope } from "../../http/errors";
import { BankAlertResponse, IgnoredIdParams, IgnoredEmailListResponse } from "./schemas";
import { sendToReview, listIgnoredEmails } from "./service";

export const IgnoredEmailsRoute = domainRoute("ignored-emails");

export const NOT_FOUND = errors({ "404": "No ignored email with this id" });

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

export const ListIgnoredEmails = route(IgnoredEmailsRoute, {
  operationId: "listIgnoredEmails",
  summary: "Emails the relevance check let go in the last 90 days, newest first, with the reason",
  responses: { "200": json("The ignored emails", IgnoredEmailListResponse) },
  handle: async (ctx) => listIgnoredEmails(ctx),
});
