import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { runStatusRoute } from "../../../http/step-routes";
import { retryAllStatus, startRetryAll } from "../retry-steps";
import { RetryAllRequest, RetryAllResponse, RetryAllStatus } from "../schemas";
import { ParseFailuresRoute } from "./base";

export const RetryAllParseFailures = route(ParseFailuresRoute, {
  operationId: "retryAllParseFailures",
  summary: "Retry the quarantined backlog (optionally filtered by sender domain or institution)",
  request: { body: { ...contentJson(RetryAllRequest), required: false } },
  description:
    "A backlog of up to 100 rows is retried in this request. A larger one: the first 100 here (status " +
    "running, their counts), the rest in background steps of 100; GET retry-all tells the run's counts.",
  responses: {
    "200": json("Counts of the retry run", RetryAllResponse),
    "409": json("A run is still going on", RetryAllStatus),
  },
  handle: async (ctx, { body }, c) => {
    const { started, body: out } = await startRetryAll(ctx, { filter: body ?? {} });
    return c.json(out, started ? 200 : 409);
  },
});

export const GetRetryAllStatus = runStatusRoute("parse-failures", {
  operationId: "getRetryAllStatus",
  summary: "The latest retry-all run: running with its counts so far, done, or error",
  answer: "The run",
  schema: RetryAllStatus,
  read: (ctx) => retryAllStatus(ctx.env, ctx.clock),
});
