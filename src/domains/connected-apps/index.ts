import { DisconnectConnectedApp, ListConnectedApps } from "./routes";
import { domainRouter } from "../../http/route";

/** Mounted at /api/v1/connected-apps: the apps connected through OAuth (src/oauth/). */
export function connectedAppsRouter() {
  const router = domainRouter();
  router.get("/", ListConnectedApps);
  router.delete("/:app_id", DisconnectConnectedApp);
  return router;
}
