import { domainRouter } from "../../http/route";
import { GetCardNames } from "./routes/get";
import { PutCardNames } from "./routes/put";

export function cardNamesRouter() {
  const router = domainRouter();
  router.get("/", GetCardNames);
  router.put("/", PutCardNames);
  return router;
}
