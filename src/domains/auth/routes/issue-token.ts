import { contentJson } from "chanfana";
import { serviceCtx } from "../../../http/context";
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
  handle: async (c, { body }) => c.json(await issueToken(serviceCtx(c), body), 201),
});
