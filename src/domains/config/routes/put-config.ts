import { contentJson } from "chanfana";
import { stageImages } from "../../../http/activity";
import { type AppContext, serviceCtx } from "../../../http/context";
import { AppConfigResponse, AppConfigUpdateRequest } from "../schemas";
import { updateConfig } from "../service";
import { ConfigRoute } from "./get-config";

export class PutAppConfig extends ConfigRoute {
  override schema = {
    operationId: "putAppConfig",
    summary: "Update runtime configuration (partial; null resets a field)",
    description: "Journaled with before/after images, so `POST /api/v1/activity/{id}/revert` can undo it.",
    request: { body: { ...contentJson(AppConfigUpdateRequest), required: true } },
    responses: {
      "200": {
        description: "The configuration after the update",
        content: { "application/json": { schema: AppConfigResponse } },
      },
    },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const { before, after, response } = await updateConfig({ ctx: serviceCtx(c), input: body });
    stageImages(c, { kind: "config", resourceId: "app", before, after });
    return c.json(response);
  }
}
