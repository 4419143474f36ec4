import { type AppContext, serviceCtx } from "../../../http/context";
import { TemplateIdParams } from "../schemas";
import { deleteTemplate } from "../service";
import { NOT_FOUND, TemplatesRoute } from "./base";

export class DeleteTemplate extends TemplatesRoute {
  override schema = {
    operationId: "deleteAlertTemplate",
    summary: "Delete a learned template (that bank's alerts are quarantined again)",
    description:
      "Journaled with the whole row as its before image: reverting restores it. Disabled in demo mode.",
    request: { params: TemplateIdParams },
    responses: { "204": { description: "Deleted" }, ...NOT_FOUND },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteTemplate(serviceCtx(c), params.template_id);
    return c.body(null, 204);
  }
}
