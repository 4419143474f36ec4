import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { AppConfigResponse } from "../schemas";
import { describeConfig } from "../describe-config";

export const ConfigRoute = domainRoute("config");

export class GetAppConfig extends ConfigRoute {
  override schema = {
    operationId: "getAppConfig",
    summary: "Runtime configuration: storage, demo mode, user, AI and schedule settings",
    responses: {
      "200": {
        description: "The effective configuration",
        content: { "application/json": { schema: AppConfigResponse } },
      },
    },
  };

  override async handle(c: AppContext) {
    return c.json(await describeConfig(serviceCtx(c)));
  }
}
