import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { TemplateIdParams, TemplateRenameRequest, TemplateSummary } from "../schemas";
import { renameTemplate } from "../service";
import { NOT_FOUND, TemplatesRoute } from "./base";

export const RenameTemplate = route(TemplatesRoute, {
  operationId: "renameAlertTemplate",
  summary: "Rename a learned template",
  description: "Journaled with before/after images (revertable). Disabled in demo mode.",
  request: { params: TemplateIdParams, body: { ...contentJson(TemplateRenameRequest), required: true } },
  responses: { "200": json("The renamed template", TemplateSummary), ...NOT_FOUND },
  handle: async (ctx, { params, body }) => {
    const { response } = await renameTemplate(ctx, { id: params.template_id, name: body.name });
    return response;
  },
});
