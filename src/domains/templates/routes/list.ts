import { json, route } from "../../../http/route";
import { TemplateListResponse } from "../schemas";
import { listTemplates } from "../service";
import { TemplatesRoute } from "./base";

export const ListTemplates = route(TemplatesRoute, {
  operationId: "listAlertTemplates",
  summary: "Bank alert templates learned from hand-resolved emails",
  description: "Each with its masked example, how many emails it has read, and when it last read one.",
  responses: { "200": json("The learned templates", TemplateListResponse) },
  handle: async (ctx) => listTemplates(ctx),
});
