import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { AppConfigResponse, AppConfigUpdateRequest } from "../schemas";
import { ignoredKeys } from "../rules";
import { updateConfig } from "../service";
import { ConfigRoute } from "./get-config";

export class PutAppConfig extends ConfigRoute {
  override schema = {
    operationId: "putAppConfig",
    summary: "Update runtime configuration (partial; null resets a field)",
    description:
      "Journaled with before/after images, so `POST /api/v1/activity/{id}/revert` can undo it. The body " +
      "of `GET` is a valid update: keys that are not settings (response-only or unknown) and `storage` " +
      "(D1 here) change nothing and are named in the `X-Config-Ignored` header. `demo_mode: true` makes " +
      "the journal read-only (405 on writes) until a `PUT` here sets it false.",
    request: { body: { ...contentJson(AppConfigUpdateRequest), required: true } },
    responses: {
      "200": {
        description: "The configuration after the update",
        headers: {
          "X-Config-Ignored": {
            description: "Keys of the body that changed nothing (not settings, or storage), comma-separated",
            schema: { type: "string" as const },
          },
        },
        content: { "application/json": { schema: AppConfigResponse } },
      },
    },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const ignored = ignoredKeys(
      ((await this.getUnvalidatedData()) as { body?: unknown }).body,
      Object.keys(AppConfigUpdateRequest.shape),
    );
    if (ignored.length > 0) c.header("X-Config-Ignored", ignored.join(", "));
    const { response } = await updateConfig(serviceCtx(c), body);
    return c.json(response);
  }
}
