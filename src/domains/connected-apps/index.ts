import { domainRouter } from "../../http/route";
import { DisconnectConnectedApp } from "./routes/disconnect-app";
import { ListConnectedApps } from "./routes/list-apps";

/** Mounted at /api/v1/connected-apps: the apps connected through OAuth (src/oauth/). */
export function connectedAppsRouter() {
  const router = domainRouter();
  router.get("/", ListConnectedApps);
  router.delete("/:app_id", DisconnectConnectedApp);
  return router;
}
