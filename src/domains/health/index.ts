import { domainRouter } from "../../http/route";
import { GetHealth } from "./routes/get-health";

export function healthRouter() {
  const router = domainRouter();
  router.get("/", GetHealth);
  return router;
}
