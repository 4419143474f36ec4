import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { TemplateIdParams, TemplateRenameRequest, TemplateSummary } from "../schemas";
import { renameTemplate } from "../service";
import { json, NOT_FOUND, TemplatesRoute } from "./base";

export class RenameTemplate extends TemplatesRoute {
  override schema = {
    operationId: "renameAlertTemplate",
    summary: "Rename a learned template",
    description: "Journaled with before/after images (revertable). Disabled in demo mode.",
    request: { params: TemplateIdParams, body: { ...contentJson(TemplateRenameRequest), required: true } },
    responses: { "200": json("The renamed template", TemplateSummary), ...NOT_FOUND },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const { response } = await renameTemplate(serviceCtx(c), { id: params.template_id, name: body.name });
    return c.json(response);
  }
}
