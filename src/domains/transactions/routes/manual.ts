import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { addManual } from "../manual";
import { ManualTransactionRequest, ManualTransactionResponse } from "../schemas";
import { json } from "./base";

export class AddManualTransaction extends domainRoute("ingestion") {
  override schema = {
    operationId: "addManualTransaction",
    summary: "Add a transaction by hand (cash, a missed alert); deduplicated like email rows",
    request: { body: { ...contentJson(ManualTransactionRequest), required: true } },
    responses: json(ManualTransactionResponse),
  };
  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const { activityId: _, ...res } = await addManual(serviceCtx(c), body);
    return c.json(res);
  }
}
