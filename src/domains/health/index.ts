import { fromHono } from "chanfana";
import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { GetHealth } from "./routes/get-health";

export function healthRouter() {
  const router = fromHono(new Hono<AppEnv>());
  router.get("/", GetHealth);
  return router;
}
