import { domainRouter } from "../../http/route";
import { GetWhoami } from "./routes/get-whoami";

/** Mounted at /api/v1/whoami. */
export function whoamiRouter() {
  const router = domainRouter();
  router.get("/", GetWhoami);
  return router;
}
