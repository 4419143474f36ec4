import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { TemplateIdParams, TemplateTestRequest, TemplateTestResponse } from "../schemas";
import { testTemplate } from "../service";
import { json, NOT_FOUND, TemplatesRoute } from "./base";

export class TestTemplate extends TemplatesRoute {
  override schema = {
    operationId: "testAlertTemplate",
    summary: "What a learned template would extract from a raw email (nothing is written)",
    request: { params: TemplateIdParams, body: { ...contentJson(TemplateTestRequest), required: true } },
    responses: {
      "200": json("The template's reading, or why it does not read the email", TemplateTestResponse),
      ...NOT_FOUND,
    },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await testTemplate(serviceCtx(c), { id: params.template_id, raw: body.raw }));
  }
}
