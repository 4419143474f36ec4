import { domainRoute, json, route } from "../../../http/route";
import { AppConfigResponse } from "../schemas";
import { describeConfig } from "../describe-config";

export const ConfigRoute = domainRoute("config");

export const GetAppConfig = route(ConfigRoute, {
  operationId: "getAppConfig",
  summary: "Runtime configuration: storage, demo mode, user, AI and schedule settings",
  responses: {
    "200": json("The effective configuration", AppConfigResponse),
  },
  handle: async (ctx) => describeConfig(ctx),
});
