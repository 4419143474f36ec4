import { type AppContext, serviceCtx } from "../../../http/context";
import { TemplateListResponse } from "../schemas";
import { listTemplates } from "../service";
import { json, TemplatesRoute } from "./base";

export class ListTemplates extends TemplatesRoute {
  override schema = {
    operationId: "listAlertTemplates",
    summary: "Bank alert templates learned from hand-resolved emails",
    description: "Each with its masked example, how many emails it has read, and when it last read one.",
    responses: { "200": json("The learned templates", TemplateListResponse) },
  };

  override async handle(c: AppContext) {
    return c.json(await listTemplates(serviceCtx(c)));
  }
}
