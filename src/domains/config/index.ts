import { domainRouter } from "../../http/route";
import { GetAppConfig } from "./routes/get-config";
import { PutAppConfig } from "./routes/put-config";

export function configRouter() {
  const router = domainRouter();
  router.get("/", GetAppConfig);
  router.put("/", PutAppConfig);
  return router;
}
