import { type AppContext, serviceCtx } from "../../../http/context";
import { MerchantIntelligenceQuery, MerchantIntelligenceResponse } from "../schemas";
import { getMerchantIntelligence } from "../service";
import { json, MerchantsRoute } from "./base";

export class GetMerchantIntelligence extends MerchantsRoute {
  override schema = {
    operationId: "getMerchantIntelligence",
    summary: "Recurring-charge detection, price-change alerts, committed burn rate",
    description:
      "Per-merchant monthly totals over `months` ending at `month` (spending types; deleted and " +
      "ignored rows excluded): recurring fixed and variable merchants, price changes (≥5% and ≥1 " +
      "currency unit from the baseline), new and churned merchants, and the committed burn rate next " +
      "to the last month's discretionary spend. Cached for one hour per (month, months).",
    request: { query: MerchantIntelligenceQuery },
    responses: json(MerchantIntelligenceResponse),
  };

  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getMerchantIntelligence(serviceCtx(c), query));
  }
}
