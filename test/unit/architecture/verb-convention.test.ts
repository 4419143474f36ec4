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

describe("service verb calling convention", () => {
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
