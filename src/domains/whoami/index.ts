import { GetWhoami } from "./routes";
import { domainRouter } from "../../http/route";

/** Mounted at /api/v1/whoami. */
export function whoamiRouter() {
  const router = domainRouter();
  router.get("/", GetWhoami);
  return router;
}
