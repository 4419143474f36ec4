// Domain failures carry a kind, a code and words, no status; each door maps the kind its own way.
import { describe, expect, it } from "vitest";
import { toolError } from "../../../src/domains/mcp/tools/define";
import { toApiError } from "../../../src/http/errors";
import {
  Conflict,
  type DomainError,
  Gone,
  Invalid,
  NotFound,
  Refused,
  TooLarge,
  Unsupported,
} from "../../../src/lib/errors";

const cases: [DomainError, number][] = [
  [new NotFound("Statement not found"), 404],
  [new Conflict("stale", "stale_revert", { seq: 3 }), 409],
  [
    new Invalid(
      [{ loc: ["body", "file"], msg: "The file is empty", type: "value_error" }],
      "The file is empty",
    ),
    422,
  ],
  [new Refused("Set up document parsing first", "AI_NOT_CONFIGURED"), 422],
  [new Gone("This preview is older than 15 minutes"), 410],
  [new TooLarge("The file is larger than 10 MB", { max_bytes: 10 }), 413],
  [new Unsupported("not a PDF", { accepted: ["pdf"] }), 415],
];

describe("domain errors", () => {
  it.each(cases)("HTTP maps %s to its status with code, words and details unchanged", (err, status) => {
    const api = toApiError(err);
    expect(api.status).toBe(status);
    expect([api.code, api.message, api.details]).toEqual([err.code, err.message, err.details]);
  });

  it.each(cases)("an MCP tool error carries the same envelope (%s)", (err) => {
    const out = toolError(err);
    expect(out.isError).toBe(true);
    const text = (out.content[0] as { text: string }).text;
    expect(JSON.parse(text)).toEqual({ error: err.message, code: err.code, details: err.details });
  });
});
