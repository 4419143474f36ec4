import { GetCardNames, PutCardNames } from "./routes";
import { domainRouter } from "../../http/route";

export function cardNamesRouter() {
  const router = domainRouter();
  router.get("/", GetCardNames);
  router.put("/", PutCardNames);
  return router;
}
