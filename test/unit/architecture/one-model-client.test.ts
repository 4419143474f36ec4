import { describe, expect, it } from "vitest";
import { sourceTree, stripComments } from "./source-tree";

// Issue 23, point 3: one AI entry point. Only src/ai/ talks to the `openai` SDK, and only the
// routing layer (src/ai/routing.ts) makes a provider (src/ai/hosted.ts holds the SDK client), so every model call in the codebase got its
// provider and model from the stored per-task settings (and `disabled` gets none).

const sources = sourceTree();
const code = stripComments;

function modelClientViolations(files: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const c = code(text);
    if (!file.startsWith("src/ai/") && /from\s+["']openai(\/[^"']*)?["']/.test(c))
      out.push(`${file} imports the openai SDK`);
    const builds =
      (file !== "src/ai/hosted.ts" && /new\s+OpenAI\s*\(/.test(c)) ||
      (file !== "src/ai/routing.ts" && /new\s+HostedProvider\s*\(/.test(c));
    if (builds) out.push(`${file} builds its own model client`);
  }
  return out;
}

describe("one model client", () => {
  it("only the routing layer makes a provider; only src/ai/ imports the SDK", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(modelClientViolations(sources)).toEqual([]);
  });

  it("the checker catches a second client (synthetic sources)", () => {
    expect(
      modelClientViolations({
        "src/domains/x/parse.ts": 'import OpenAI from "openai";\nconst c = new OpenAI({ apiKey });',
        "src/domains/y/service.ts": "const p = new HostedProvider({ apiKey: k });",
        "src/ai/routing.ts": "const p = new HostedProvider({ apiKey: k });",
      }),
    ).toEqual([
      "src/domains/x/parse.ts imports the openai SDK",
      "src/domains/x/parse.ts builds its own model client",
      "src/domains/y/service.ts builds its own model client",
    ]);
  });
});
