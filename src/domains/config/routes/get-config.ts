import { serviceCtx } from "../../../http/context";
import { domainRoute, route } from "../../../http/route";
import { AppConfigResponse } from "../schemas";
import { describeConfig } from "../describe-config";

export const ConfigRoute = domainRoute("config");

export const GetAppConfig = route(ConfigRoute, {
  operationId: "getAppConfig",
  summary: "Runtime configuration: storage, demo mode, user, AI and schedule settings",
  responses: {
    "200": {
      description: "The effective configuration",
      content: { "application/json": { schema: AppConfigResponse } },
    },
  },
  handle: async (c) => describeConfig(serviceCtx(c)),
});
