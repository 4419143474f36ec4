import { domainRouter } from "../../http/route";
import { DeleteMerchantAlias } from "./routes/delete-alias";
import { ListMerchantAliases } from "./routes/list-aliases";
import { PutMerchantAlias } from "./routes/put-alias";

/** Mounted at /api/v1/merchant-aliases. */
export function merchantAliasesRouter() {
  const router = domainRouter();
  router.get("/", ListMerchantAliases);
  router.put("/:raw_name", PutMerchantAlias);
  router.delete("/:raw_name", DeleteMerchantAlias);
  return router;
}
