import { GetMerchantIntelligence } from "./routes";
import { domainRouter } from "../../http/route";

/** /api/v1/merchants */
export function merchantsRouter() {
  const r = domainRouter();
  r.get("/intelligence", GetMerchantIntelligence);
  return r;
}
