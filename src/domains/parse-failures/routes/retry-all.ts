import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { RetryAllRequest, RetryAllResponse } from "../schemas";
import { retryAllParseFailures } from "../service";
import { json, ParseFailuresRoute } from "./base";

export class RetryAllParseFailures extends ParseFailuresRoute {
  override schema = {
    operationId: "retryAllParseFailures",
    summary: "Retry the quarantined backlog (optionally filtered by sender domain or institution)",
    request: { body: { ...contentJson(RetryAllRequest), required: false } },
    responses: { "200": json("Counts of the retry run", RetryAllResponse) },
  };

  override async getUnvalidatedData(): Promise<unknown> {
    // An empty body means "no filter" here, not a missing body.
    const request = this.params.router.getRequest(this.args) as Request;
    if ((await request.clone().text()).trim() === "") {
      this.unvalidatedData = { body: {} };
      return this.unvalidatedData;
    }
    return super.getUnvalidatedData();
  }

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await retryAllParseFailures(serviceCtx(c), { filter: body ?? {} }));
  }
}
