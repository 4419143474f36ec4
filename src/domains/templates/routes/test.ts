import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { TemplateIdParams, TemplateTestRequest, TemplateTestResponse } from "../schemas";
import { testTemplate } from "../service";
import { NOT_FOUND, TemplatesRoute } from "./base";

export const TestTemplate = route(TemplatesRoute, {
  operationId: "testAlertTemplate",
  summary: "What a learned template would extract from a raw email (nothing is written)",
  request: { params: TemplateIdParams, body: { ...contentJson(TemplateTestRequest), required: true } },
  responses: {
    "200": json("The template's reading, or why it does not read the email", TemplateTestResponse),
    ...NOT_FOUND,
  },
  handle: async (ctx, { params, body }) => testTemplate(ctx, { id: params.template_id, raw: body.raw }),
});
