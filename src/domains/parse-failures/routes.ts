import { domainRoute, errors, json, route } from "../../http/route";
import {
  DismissResponse,
  FailureIdParams,
  ParseFailureDetail,
  ListQuery,
  ParseFailureListResponse,
  TemplateProposalResponse,
  ManualResolveRequest,
  ManualResolveResponse,
  RetryAllRequest,
  RetryAllResponse,
  RetryAllStatus,
  RetryResponse,
  FixtureFromFailureRequest,
} from "./schemas";
import {
  dismissParseFailure,
  getParseFailure,
  listParseFailures,
  resolveParseFailure,
  retryParseFailure,
  parseFailureToFixture,
} from "./service";
import { proposeTemplate } from "./proposal";
import { contentJson } from "chanfana";
import { runStatusRoute } from "../../http/step-routes";
import { retryAllStatus, startRetryAll } from "./retry-steps";
import { z } from "zod";
import { type AppContext, serviceCtx } from "../../http/context";

export const ParseFailuresRoute = domainRoute("parse-failures");

export const NOT_FOUND = errors({ "404": "No parse failure with this id" });
export const CONFLICT = (what: string) => errors({ "409": what });

export const DismissParseFailure = route(ParseFailuresRoute, {
  operationId: "dismissParseFailure",
  summary: "Dismiss a quarantined email (it leaves the default listing)",
  request: { params: FailureIdParams },
  responses: { "200": json("Dismissed", DismissResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => dismissParseFailure(ctx, params.failure_id),
});

export const GetParseFailure = route(ParseFailuresRoute, {
  operationId: "getParseFailure",
  summary: "One quarantined email with its body",
  request: { params: FailureIdParams },
  responses: { "200": json("The quarantined email", ParseFailureDetail), ...NOT_FOUND },
  handle: async (ctx, { params }) => getParseFailure(ctx, params.failure_id),
});

export const ListParseFailures = route(ParseFailuresRoute, {
  operationId: "listParseFailures",
  summary: "Quarantined emails, newest first (without a filter: every status but dismissed)",
  request: { query: ListQuery },
  responses: { "200": json("The quarantine", ParseFailureListResponse) },
  handle: async (ctx, { query }) =>
    listParseFailures(ctx, { status: query.status ?? null, limit: query.limit }),
});

export const ProposeTemplate = route(ParseFailuresRoute, {
  operationId: "proposeParseFailureTemplate",
  summary: "The model's reading of a quarantined alert, offered as a template to confirm",
  description:
    "Only when alert reading (the categorization task) has a provider and “Read unknown alerts with AI” " +
    "is on (otherwise nothing is sent and `asked` is false). The model reads the email; its amount, date, " +
    "merchant and currency are kept only when the email prints them, else the reading is refused with " +
    "the reason. Nothing is saved: the person confirms with POST /parse-failures/{failure_id}/resolve " +
    "(`proposed: true`), which teaches the template as a hand resolve does.",
  request: { params: FailureIdParams },
  responses: {
    "200": json("The checked reading, or why there is none", TemplateProposalResponse),
    ...NOT_FOUND,
    ...CONFLICT("Already recovered or resolved"),
  },
  handle: async (ctx, { params }) => proposeTemplate(ctx, params.failure_id),
});

export const ResolveParseFailure = route(ParseFailuresRoute, {
  operationId: "resolveParseFailure",
  summary: "Create the transaction of a quarantined email from hand-entered values",
  request: { params: FailureIdParams, body: { ...contentJson(ManualResolveRequest), required: true } },
  responses: {
    "200": json("The created transaction's key", ManualResolveResponse),
    ...NOT_FOUND,
    ...CONFLICT("Already recovered or resolved, or an identical transaction exists"),
  },
  handle: async (ctx, { params, body }) =>
    (await resolveParseFailure(ctx, { id: params.failure_id, input: body })).response,
});

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

export const RetryParseFailure = route(ParseFailuresRoute, {
  operationId: "retryParseFailure",
  summary: "Re-run the deterministic parsers on the stored raw email",
  request: { params: FailureIdParams },
  responses: {
    "200": json("recovered, duplicate, or still_failing (with the new failure stage)", RetryResponse),
    ...NOT_FOUND,
    ...CONFLICT("Already recovered or resolved"),
  },
  handle: async (ctx, { params }) => retryParseFailure(ctx, { id: params.failure_id }),
});

const FixtureFromFailureResponse = z
  .object({ txt_path: z.string(), json_path: z.string() })
  .meta({ id: "FixtureFromFailureResponse" });

export class ParseFailureToFixture extends ParseFailuresRoute {
  override schema = {
    operationId: "parseFailureToFixture",
    summary: "Write a scrubbed test-fixture pair (needs a source checkout; refused on Workers)",
    description:
      "A Cloudflare Worker has no writable source checkout, so this deployment answers 409 " +
      "`NO_SOURCE_CHECKOUT`; demo mode answers 405 like every write.",
    request: {
      params: FailureIdParams,
      body: { ...contentJson(FixtureFromFailureRequest.nullable()), required: false },
    },
    responses: {
      "200": json("Paths of the two fixture files written", FixtureFromFailureResponse),
      ...NOT_FOUND,
      ...CONFLICT("No writable source checkout on this deployment"),
    },
  };

  override async handle(c: AppContext) {
    const id = c.req.param("failure_id") ?? "";
    return parseFailureToFixture(serviceCtx(c), id);
  }
}
