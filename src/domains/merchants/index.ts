import { domainRouter } from "../../http/route";
import { GetMerchantIntelligence } from "./routes/get-intelligence";

/** /api/v1/merchants */
export function merchantsRouter() {
  const r = domainRouter();
  r.get("/intelligence", GetMerchantIntelligence);
  return r;
}
