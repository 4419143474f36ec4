import { domainRoute, ok, route } from "../../http/route";
import { MerchantIntelligenceQuery, MerchantIntelligenceResponse } from "./schemas";
import { getMerchantIntelligence } from "./service";

export const MerchantsRoute = domainRoute("merchants");

export const GetMerchantIntelligence = route(MerchantsRoute, {
  operationId: "getMerchantIntelligence",
  summary: "Recurring-charge detection, price-change alerts, committed burn rate",
  description:
    "Per-merchant monthly totals over `months` ending at `month` (spending types; deleted and " +
    "ignored rows excluded): recurring fixed and variable merchants, price changes (≥5% and ≥1 " +
    "currency unit from the baseline), new and churned merchants, and the committed burn rate next " +
    "to the last month's discretionary spend. Cached for one hour per (month, months).",
  request: { query: MerchantIntelligenceQuery },
  responses: ok(MerchantIntelligenceResponse),
  handle: async (ctx, { query }) => getMerchantIntelligence(ctx, query),
});
