import { domainRoute, json, route } from "../../../http/route";
import { listApps } from "../apps";
import { ConnectedAppList } from "../schemas";

export const AppsRoute = domainRoute("connected-apps");

export const ListConnectedApps = route(AppsRoute, {
  operationId: "listConnectedApps",
  summary: "Apps connected through OAuth (MCP): name, scope, when connected and last used",
  responses: {
    "200": json("Connected apps, newest first", ConnectedAppList),
  },
  handle: async (_ctx, _, c) => ({ apps: await listApps(c.env, new URL(c.req.url).origin) }),
});
