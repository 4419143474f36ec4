import { describe, expect, it } from "vitest";
import { sourceTree, stripComments } from "./source-tree";

// Issue 24, item 8: one calling convention for service verbs, `verb(ctx, input)`: the context first,
// then at most one argument. A verb that destructures its context from an object (`verb({ ctx, id })`)
// is the older convention this test keeps out of src/domains.

const sources = sourceTree();

function destructuredCtxVerbs(files: Record<string, string>): string[] {
  const out: string[] = [];
  const pattern = /export\s+(?:async\s+)?function\s+(\w+)\s*(?:<[^>]*>)?\s*\(\s*\{\s*ctx\b/g;
  for (const [file, text] of Object.entries(files)) {
    if (!file.startsWith("src/domains/")) continue;
    for (const m of stripComments(text).matchAll(pattern)) out.push(`${file}: ${m[1]}({ ctx, … })`);
  }
  return out;
}

/** Verbs whose context comes first and is followed by more than one parameter. */
function positionalVerbs(files: Record<string, string>): string[] {
  const out: string[] = [];
  const start = /export\s+(?:async\s+)?function\s+(\w+)\s*(?:<[^>]*>)?\s*\(\s*ctx\b/g;
  for (const [file, raw] of Object.entries(files)) {
    if (!file.startsWith("src/domains/")) continue;
    const text = stripComments(raw);
    for (const m of text.matchAll(start)) {
      // The parameter list up to its closing parenthesis; top-level commas separate parameters.
      let depth = 0;
      let params = 1;
      let last = "";
      for (let i = text.indexOf("(", m.index) + 1; i < text.length; i++) {
        const ch = text[i]!;
        if (ch === ">" && text[i - 1] === "=") continue; // an arrow type's =>
        if ("([{<".includes(ch)) depth++;
        else if (")]}>".includes(ch)) {
          if (depth === 0) break;
          depth--;
        } else if (ch === "," && depth === 0) params++;
        if (!/\s/.test(ch)) last = ch;
      }
      if (last === ",") params--; // a trailing comma
      if (params > 2) out.push(`${file}: ${m[1]}(ctx + ${params - 1})`);
    }
  }
  return out;
}

describe("service verb calling convention", () => {
  it("no verb in src/domains takes more than one argument after its context", () => {
    expect(positionalVerbs(sources)).toEqual([]);
  });

  it("the check counts parameters at the top level only", () => {
    const files = {
      "src/domains/a/service.ts": "export async function a(ctx: Ctx, id: string, why: string) {}",
      "src/domains/b/service.ts":
        'export async function b(ctx: Pick<Ctx, "env" | "clock">, input: { a: number, b: Map<string, number> },) {}',
      "src/domains/c/service.ts": "export function c(ctx: Ctx, id = f(1, 2)) {}",
      "src/domains/d/service.ts": "export function d(ctx: Ctx, on: (a: A, b: B) => void, x: X) {}",
    };
    expect(positionalVerbs(files)).toEqual([
      "src/domains/a/service.ts: a(ctx + 2)",
      "src/domains/d/service.ts: d(ctx + 2)",
    ]);
  });

  it("no verb in src/domains takes its context inside an object", () => {
    expect(Object.keys(sources).filter((f) => f.startsWith("src/domains/")).length).toBeGreaterThan(20);
    expect(destructuredCtxVerbs(sources)).toEqual([]);
  });

  it("the check sees the old convention, on one line or several", () => {
    const files = {
      "src/domains/x/service.ts": "export async function getX({ ctx, id }: { ctx: Ctx; id: string }) {}",
      "src/domains/y/service.ts": "export async function listY({\n  ctx,\n  input,\n}: Args) {}",
      "src/domains/z/service.ts": "export async function getZ(ctx: Ctx, id: string) {}",
      "src/lib/w.ts": "export async function w({ ctx }: { ctx: Ctx }) {}",
    };
    expect(destructuredCtxVerbs(files)).toEqual([
      "src/domains/x/service.ts: getX({ ctx, … })",
      "src/domains/y/service.ts: listY({ ctx, … })",
    ]);
  });
});
