import { GetHealth } from "./routes";
import { domainRouter } from "../../http/route";

export function healthRouter() {
  const router = domainRouter();
  router.get("/", GetHealth);
  return router;
}
