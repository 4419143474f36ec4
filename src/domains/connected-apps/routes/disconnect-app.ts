import { z } from "zod";
import { json, route } from "../../../http/route";
import { DisconnectAppResponse } from "../schemas";
import { disconnectConnectedApp } from "../service";
import { AppsRoute } from "./list-apps";

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
