import { contentJson } from "chanfana";
import { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { json } from "../../../http/route";
import { FailureIdParams, FixtureFromFailureRequest } from "../schemas";
import { parseFailureToFixture } from "../service";
import { CONFLICT, NOT_FOUND, ParseFailuresRoute } from "./base";

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
