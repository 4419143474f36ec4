import { route } from "../../../http/route";
import { TemplateIdParams } from "../schemas";
import { deleteTemplate } from "../service";
import { NOT_FOUND, TemplatesRoute } from "./base";

export const DeleteTemplate = route(TemplatesRoute, {
  operationId: "deleteAlertTemplate",
  summary: "Delete a learned template (that bank's alerts are quarantined again)",
  description:
    "Journaled with the whole row as its before image: reverting restores it. Disabled in demo mode.",
  request: { params: TemplateIdParams },
  responses: { "204": { description: "Deleted" }, ...NOT_FOUND },
  handle: async (ctx, { params }, c) => {
    await deleteTemplate(ctx, params.template_id);
    return c.body(null, 204);
  },
});
