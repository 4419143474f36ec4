import { type AppContext, serviceCtx } from "../../../http/context";
import { IgnoredEmailListResponse } from "../schemas";
import { listIgnoredEmails } from "../service";
import { IgnoredEmailsRoute, json } from "./base";

export class ListIgnoredEmails extends IgnoredEmailsRoute {
  override schema = {
    operationId: "listIgnoredEmails",
    summary: "Emails the relevance check let go in the last 90 days, newest first, with the reason",
    responses: { "200": json("The ignored emails", IgnoredEmailListResponse) },
  };

  override async handle(c: AppContext) {
    return c.json(await listIgnoredEmails(serviceCtx(c)));
  }
}
