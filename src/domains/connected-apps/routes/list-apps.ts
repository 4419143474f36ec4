import type { AppContext } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { listApps } from "../apps";
import { ConnectedAppList } from "../schemas";

export const AppsRoute = domainRoute("connected-apps");

export class ListConnectedApps extends AppsRoute {
  override schema = {
    operationId: "listConnectedApps",
    summary: "Apps connected through OAuth (MCP): name, scope, when connected and last used",
    responses: {
      "200": {
        description: "Connected apps, newest first",
        content: { "application/json": { schema: ConnectedAppList } },
      },
    },
  };

  override async handle(c: AppContext) {
    return c.json({ apps: await listApps(c.env, new URL(c.req.url).origin) });
  }
}
