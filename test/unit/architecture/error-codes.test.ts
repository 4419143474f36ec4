import { describe, expect, it } from "vitest";
import openapi from "../../../openapi.json";
import { ERROR_CODES } from "../../../src/lib/errors";
import { sourceTree, stripComments } from "./source-tree";

// Issue 40, point 5: one error catalogue. Every envelope `code` is one of ERROR_CODES
// (src/lib/errors.ts), the contract's ErrorEnvelope.code is that enum, codes are upper snake case
// (SPEC.md spells one `stale_revert`: the only exception), and the dashboard takes the codes from
// the generated types instead of strings of its own.

/** Codes spelled as SPEC.md's error table spells them. */
const SPEC_SPELLED = new Set(["stale_revert"]);
const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

function catalogueViolations(codes: readonly string[]): string[] {
  const out = codes
    .filter((c) => !UPPER_SNAKE.test(c) && !SPEC_SPELLED.has(c))
    .map((c) => `${c} is not UPPER_SNAKE`);
  const seen = new Set<string>();
  for (const c of codes) if (seen.has(c) || !seen.add(c)) out.push(`${c} is listed twice`);
  return out;
}

type Doc = { components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> } };

function contractViolations(doc: Doc, codes: readonly string[]): string[] {
  const listed = doc.components.schemas.ErrorEnvelope?.properties?.code?.enum;
  if (!listed) return ["ErrorEnvelope.code is not an enum in openapi.json"];
  const want = [...codes].sort();
  return JSON.stringify([...listed].sort()) === JSON.stringify(want)
    ? []
    : [`ErrorEnvelope.code lists ${listed.join(", ")}; the catalogue has ${want.join(", ")}`];
}

// A code-shaped literal where a code is given: `code: "X"`, or an argument of an error's constructor.
const ERROR_CALL =
  /\b(?:new\s+(?:ApiError|DomainError|NotFound|Conflict|Refused|Gone|TooLarge|Unsupported)|conflict)\s*\(/g;
const CODE_SHAPED = /"([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Z]{3,})"/g;

/** The balanced argument list of the call whose "(" ends at `from`. */
function argumentsAt(text: string, from: number): string {
  let depth = 1;
  let i = from;
  while (depth > 0 && i < text.length) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")") depth--;
    i++;
  }
  return text.slice(from, i - 1);
}

function sourceViolations(files: Record<string, string>, codes: readonly string[]): string[] {
  const known = new Set(codes);
  const out: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const c = stripComments(text);
    const given = [...c.matchAll(/\bcode:\s*"([^"]+)"/g)].map((m) => m[1]!);
    for (const m of c.matchAll(ERROR_CALL)) {
      const args = argumentsAt(c, m.index + m[0].length);
      // A value in the details (`{ reason: "x_y" }`) is not a code.
      for (const lit of args.matchAll(CODE_SHAPED))
        if (!/[\w"]\s*:\s*$/.test(args.slice(0, lit.index))) given.push(lit[1]!);
    }
    for (const code of given) if (!known.has(code)) out.push(`${file}: code ${code} is not in the catalogue`);
  }
  return out;
}

// The dashboard: ApiError's code is typed by the generated ErrorEnvelope, and no file compares a
// code with a literal of its own (hasCode(err, "X") takes the generated union).
function dashboardViolations(files: Record<string, string>): string[] {
  const out: string[] = [];
  const errors = files["dashboard/src/api/errors.ts"] ?? "";
  if (
    !/ErrorCode\s*=\s*ErrorEnvelope\["code"\]/.test(errors) ||
    !/components\["schemas"\]\["ErrorEnvelope"\]/.test(errors)
  )
    out.push("dashboard/src/api/errors.ts does not take ErrorCode from the generated ErrorEnvelope");
  for (const [file, text] of Object.entries(files))
    for (const m of stripComments(text).matchAll(/\.code\s*[!=]==?\s*"([^"]+)"/g))
      out.push(`${file}: compares .code with "${m[1]}" (use hasCode with the generated ErrorCode)`);
  return out;
}

function dashboardTree(): Record<string, string> {
  const raw = import.meta.glob<string>(["/dashboard/src/**/*.{ts,tsx}", "!**/*.d.ts"], {
    query: "?raw",
    import: "default",
    eager: true,
  });
  return Object.fromEntries(Object.entries(raw).map(([path, text]) => [path.replace(/^\//, ""), text]));
}

describe("the error catalogue", () => {
  it("is upper snake case, each code once (stale_revert as SPEC.md spells it)", () => {
    expect(ERROR_CODES.length).toBeGreaterThan(15);
    expect(catalogueViolations(ERROR_CODES)).toEqual([]);
  });

  it("is ErrorEnvelope.code's enum in openapi.json", () => {
    expect(contractViolations(openapi as unknown as Doc, ERROR_CODES)).toEqual([]);
  });

  it("every code src gives is in the catalogue", () => {
    const files = sourceTree();
    expect(Object.keys(files).length).toBeGreaterThan(50);
    expect(sourceViolations(files, ERROR_CODES)).toEqual([]);
  });

  it("the dashboard takes the codes from the generated types", () => {
    const files = dashboardTree();
    expect(Object.keys(files).length).toBeGreaterThan(20);
    expect(dashboardViolations(files)).toEqual([]);
  });

  it("fails on sample violations", () => {
    expect(catalogueViolations(["NOT_FOUND", "row_settled", "NOT_FOUND"])).toEqual([
      "row_settled is not UPPER_SNAKE",
      "NOT_FOUND is listed twice",
    ]);
    const doc = { components: { schemas: { ErrorEnvelope: { properties: { code: {} } } } } };
    expect(contractViolations(doc, ERROR_CODES)).toHaveLength(1);
    const sample = {
      "src/x.ts": `throw new Conflict(\n  "It changed",\n  "stale_import",\n  { reason: "not_a_code" },\n);\nreturn { code: "NOPE" };`,
    };
    expect(sourceViolations(sample, ERROR_CODES)).toEqual([
      "src/x.ts: code NOPE is not in the catalogue",
      "src/x.ts: code stale_import is not in the catalogue",
    ]);
    expect(
      dashboardViolations({
        "dashboard/src/api/errors.ts": "export interface ErrorEnvelope { code: string }",
        "dashboard/src/x.tsx": `if (err.code === "stale_revert") return;`,
      }),
    ).toHaveLength(2);
  });
});
