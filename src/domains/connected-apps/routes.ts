import { z } from "zod";
import { json, route, domainRoute } from "../../http/route";
import { DisconnectAppResponse, ConnectedAppList } from "./schemas";
import { disconnectConnectedApp } from "./service";
import { listApps } from "./apps";

export const AppsRoute = domainRoute("connected-apps");

export const DisconnectConnectedApp = route(AppsRoute, {
  operationId: "disconnectConnectedApp",
  summary: "Disconnect an app: its grant and every token of it are revoked at once (next call 401)",
  request: { params: z.object({ app_id: z.string().min(1).max(200) }) },
  responses: {
    "200": json("Disconnected", DisconnectAppResponse),
    "404": { description: "No such connected app" },
  },
  handle: async (ctx, { params }, c) => {
    const origin = new URL(c.req.url).origin;
    const app = await disconnectConnectedApp(ctx, { origin, id: params.app_id });
    return { id: app.id, status: "disconnected" as const };
  },
});

export const ListConnectedApps = route(AppsRoute, {
  operationId: "listConnectedApps",
  summary: "Apps connected through OAuth (MCP): name, scope, when connected and last used",
  responses: {
    "200": json("Connected apps, newest first", ConnectedAppList),
  },
  handle: async (_ctx, _, c) => ({ apps: await listApps(c.env, new URL(c.req.url).origin) }),
});
