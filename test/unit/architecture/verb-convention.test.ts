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

// Issue 40, point 4: one context type for verbs (ServiceCtx, or a Pick of it), one per door, one D1
// handle type. A type named like a context (…Ctx, …Deps, …Context) is one of those listed; no
// function takes the raw D1 binding first (queries take `Db` from getDb, verbs the ServiceCtx);
// no verb (an exported function of a service file) takes `Env` first.

/** The context types there are, with what each is for. */
const CONTEXT_TYPES: Record<string, string> = {
  "src/lib/context.ts: ServiceCtx": "what every verb receives",
  "src/http/context.ts: AppContext": "the HTTP door's (hono's); serviceCtx(c) builds the verb's from it",
  "src/domains/mcp/context.ts: ToolContext": "the MCP door's: the tool call's ServiceCtx and its ledger",
  "src/ingest/types.ts: TransactionContext": "data: the month-to-date snapshot stored with a row",
  "src/domains/insights/context.ts: InsightsContext": "data: what the model is told about the month",
  // The email doors' context (createIngestDeps): the pipeline and its steps (commit, categorize)
  // take it or a Pick of it, never a type of their own.
  "src/ingest/types.ts: IngestDeps": "the email doors': what every door hands the pipeline",
};
/** Context types still to fold into ServiceCtx or IngestDeps; may only shrink. */
const CONTEXT_NOT_YET: string[] = [];
/** Files that run raw statements over every table by name (backup, restore): the binding is meant. */
const RAW_D1 = ["src/domains/data/export-steps.ts", "src/domains/data/restore-swap.ts"];

const CONTEXT_TYPE = /^\s*(?:export\s+)?(?:type|interface)\s+(\w*(?:Ctx|Deps|Context))\b/gm;
const FIRST_PARAM =
  /(?:function\s+(\w+)\s*(?:<[^>(]*>)?\s*\(|(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?\()\s*\w+\??\s*:\s*(D1Database|Env)\b/g;

function contextViolations(files: Record<string, string>) {
  const types: string[] = [];
  const d1: string[] = [];
  const envVerbs: string[] = [];
  for (const [file, raw] of Object.entries(files)) {
    if (!file.startsWith("src/")) continue;
    const text = stripComments(raw);
    for (const m of text.matchAll(CONTEXT_TYPE)) {
      const name = `${file}: ${m[1]}`;
      if (!(name in CONTEXT_TYPES) && !types.includes(name)) types.push(name);
    }
    for (const m of text.matchAll(FIRST_PARAM)) {
      if (m[3] === "D1Database" && !file.startsWith("src/db/") && !d1.includes(file)) d1.push(file);
      const exported = /export\s+(?:async\s+)?$/.test(text.slice(Math.max(0, m.index! - 14), m.index));
      const verb = exported && /\/service\.ts$/.test(file);
      if (m[3] === "Env" && verb) envVerbs.push(`${file}: ${m[1] ?? m[2]}`);
    }
  }
  return { types, d1, envVerbs };
}

describe("one context type, one D1 handle", () => {
  it("context types are the verbs' and the doors'; no raw D1 binding first; no verb takes Env", () => {
    const found = contextViolations(sources);
    expect(found.types).toEqual(CONTEXT_NOT_YET);
    expect(found.d1.sort()).toEqual(RAW_D1);
    expect(found.envVerbs).toEqual([]);
    for (const name of Object.keys(CONTEXT_TYPES)) {
      const [file, type] = name.split(": ");
      expect(stripComments(sources[file!] ?? "")).toMatch(new RegExp(`(?:type|interface)\\s+${type}\\b`));
    }
  });

  it("fails on a sample violation of each kind (synthetic sources)", () => {
    const files = {
      "src/lib/context.ts": "export interface ServiceCtx { env: Env }",
      "src/domains/a/service.ts": [
        'import { type AppContext, serviceCtx } from "../../http/context";',
        'type Ctx = Pick<ServiceCtx, "env">;',
        "export async function listA(env: Env, id: string) {}",
        "async function helper(env: Env) {}",
      ].join("\n"),
      "src/domains/a/queries.ts": "export const rowOf = (d1: D1Database, id: string) => getDb(d1).select();",
      "src/db/index.ts": "export function getDb(d1: D1Database): Db { return drizzle(d1); }",
      "src/ingest/x.ts": "export interface XDeps { db: Db }",
    };
    expect(contextViolations(files)).toEqual({
      types: ["src/domains/a/service.ts: Ctx", "src/ingest/x.ts: XDeps"],
      d1: ["src/domains/a/queries.ts"],
      envVerbs: ["src/domains/a/service.ts: listA"],
    });
  });
});
