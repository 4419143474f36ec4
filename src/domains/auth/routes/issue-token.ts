import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { ApiTokenIssueRequest, ApiTokenIssueResponse } from "../schemas";
import { issueToken } from "../tokens";
import { AuthRoute } from "./base";

export const IssueApiToken = route(AuthRoute, {
  operationId: "issueApiToken",
  summary: "Issue an API token; the raw value is in this response only",
  request: { body: { ...contentJson(ApiTokenIssueRequest), required: true } },
  responses: {
    "201": json("The new token, raw value included once", ApiTokenIssueResponse),
  },
  handle: async (ctx, { body }, c) => c.json(await issueToken(ctx, body), 201),
});
