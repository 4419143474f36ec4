import { contentJson } from "chanfana";
import { serviceCtx } from "../../../http/context";
import { route } from "../../../http/route";
import { ApiTokenIssueRequest, ApiTokenIssueResponse } from "../schemas";
import { issueToken } from "../tokens";
import { AuthRoute } from "./base";

export const IssueApiToken = route(AuthRoute, {
  operationId: "issueApiToken",
  summary: "Issue an API token; the raw value is in this response only",
  request: { body: { ...contentJson(ApiTokenIssueRequest), required: true } },
  responses: {
    "201": {
      description: "The new token, raw value included once",
      content: { "application/json": { schema: ApiTokenIssueResponse } },
    },
  },
  handle: async (c, { body }) => c.json(await issueToken(serviceCtx(c), body), 201),
});
