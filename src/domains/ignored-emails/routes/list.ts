import { json, route } from "../../../http/route";
import { IgnoredEmailListResponse } from "../schemas";
import { listIgnoredEmails } from "../service";
import { IgnoredEmailsRoute } from "./base";

export const ListIgnoredEmails = route(IgnoredEmailsRoute, {
  operationId: "listIgnoredEmails",
  summary: "Emails the relevance check let go in the last 90 days, newest first, with the reason",
  responses: { "200": json("The ignored emails", IgnoredEmailListResponse) },
  handle: async (ctx) => listIgnoredEmails(ctx),
});
