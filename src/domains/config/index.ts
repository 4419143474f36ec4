import { fromHono } from "chanfana";
import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { GetAppConfig } from "./routes/get-config";
import { PutAppConfig } from "./routes/put-config";

export function configRouter() {
  const router = fromHono(new Hono<AppEnv>());
  router.get("/", GetAppConfig);
  router.put("/", PutAppConfig);
  return router;
}
