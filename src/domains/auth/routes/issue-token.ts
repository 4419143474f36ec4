import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { ApiTokenIssueRequest, ApiTokenIssueResponse } from "../schemas";
import { issueToken } from "../tokens";
import { AuthRoute } from "./base";

export class IssueApiToken extends AuthRoute {
  override schema = {
    operationId: "issueApiToken",
    summary: "Issue an API token; the raw value is in this response only",
    request: { body: { ...contentJson(ApiTokenIssueRequest), required: true } },
    responses: {
      "201": {
        description: "The new token, raw value included once",
        content: { "application/json": { schema: ApiTokenIssueResponse } },
      },
    },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await issueToken(serviceCtx(c), body), 201);
  }
}
