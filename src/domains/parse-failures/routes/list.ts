import { type AppContext, serviceCtx } from "../../../http/context";
import { ListQuery, ParseFailureListResponse } from "../schemas";
import { listParseFailures } from "../service";
import { json, ParseFailuresRoute } from "./base";

export class ListParseFailures extends ParseFailuresRoute {
  override schema = {
    operationId: "listParseFailures",
    summary: "Quarantined emails, newest first (without a filter: every status but dismissed)",
    request: { query: ListQuery },
    responses: { "200": json("The quarantine", ParseFailureListResponse) },
  };

  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(
      await listParseFailures(serviceCtx(c), { status: query.status ?? null, limit: query.limit }),
    );
  }
}
