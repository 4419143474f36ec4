import { describe, expect, it } from "vitest";
import { resolveRelative, sourceTree, stripComments } from "./source-tree";

// Issue 24, item 1: a mutation writes its own ledger entry, in its own batch. The verb (a service
// function) calls `ctx.journal(...)` and writes through `ctx.batch(...)`; a door (an HTTP route, an
// MCP tool) only builds the context and translates its answer. This test keeps it that way:
// - no route file (and no src/http file but the ledger's own middleware and context) journals,
//   reads the request's ledger or imports the ledger module;
// - only the doors open, settle or build a ledger;
// - a file that journals also hands a batch (`ctx.batch`, or the batch passed on), so its entry has
//   a write to ride in; the exceptions are named below with their reason.

const sources = sourceTree();

/** Route files and the HTTP edge: they translate HTTP and never journal themselves. */
const isRouteSide = (file: string) =>
  /^src\/domains\/[^/]+\/routes\.ts$/.test(file) ||
  (file.startsWith("src/http/") && !LEDGER_HTTP.includes(file));
/** The ledger middleware and the request's service context (they hold the request's ledger). */
const LEDGER_HTTP = ["src/http/activity.ts", "src/http/context.ts"];
/** Where ledgers are opened, settled or built for a door (their own entries are the door's). */
const DOORS: Record<string, string> = {
  "src/domains/activity/journal.ts": "the ledger itself",
  "src/http/activity.ts": "the HTTP door (its envelope-only entry for a write no verb journaled)",
  "src/domains/mcp/index.ts": "the MCP door",
  "src/domains/mcp/tools/define.ts": "each MCP write tool's own context",
  "src/domains/attachments/candidates.ts": "a GET's auto-link: its own ledger, entry in the link's batch",
  "src/jobs/consumer.ts": "the queue door: a job step's entries under the job's name (retry-all)",
  "src/domains/insights/job.ts": "the insights queue job's context",
  "src/domains/journal/summaries-job.ts": "the daily-summary cron duty's context",
  "src/domains/summary/monthly.ts": "the monthly-summary cron duty's context",
};

/** Files that journal with no batch of their own to ride in, for a reason that stays true. */
const ALLOWED: Record<string, string> = {
  "src/domains/connected-apps/service.ts": "the disconnect changes KV, not D1: no batch to ride in",
  "src/domains/system/demo-steps.ts":
    "the demo seed's start and sum-up entries; each ingest, upload and import journals in its own batch",
};
/**
 * Files that journal outside their write's batch today, to be moved (then removed from here). Empty:
 * the last two (hand add, parse-failure resolve) hand their entry to the ingest commit's batch.
 */
const PENDING: Record<string, string> = {};

const JOURNALS = /\.journal\s*\(/;
const READS_LEDGER = /\bget\(\s*["']ledger["']\s*\)|\.ledger\b/;
const IMPORTS_LEDGER = /from\s+["'][^"']*activity\/journal["']/;
const OPENS_LEDGER = /\b(openLedger|doorCtx|jobCtx)\s*\(|\.settle\s*\(/;
/**
 * A batch of its own, or its ctx handed to the ingest commit (`journal: { ctx, … }`) or a list
 * write (`writeList(ctx, …)`), whose batch carries the entry.
 */
const HANDS_A_BATCH = /\bbatch\b|\bjournal:\s*\{\s*ctx\b|\bwriteList(?:Snapshot)?\(\s*ctx\b/;

function problems(files: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [file, raw] of Object.entries(files)) {
    if (!file.startsWith("src/")) continue;
    const text = stripComments(raw);
    if (isRouteSide(file)) {
      if (JOURNALS.test(text)) out.push(`${file}: a route journals (the verb should)`);
      if (READS_LEDGER.test(text)) out.push(`${file}: a route reads the request's ledger`);
      if (IMPORTS_LEDGER.test(text)) out.push(`${file}: a route imports the ledger`);
    }
    if (OPENS_LEDGER.test(text) && !(file in DOORS))
      out.push(`${file}: opens or settles a ledger (only the doors do)`);
    const verb = !isRouteSide(file) && !(file in DOORS);
    const unbatched = verb && JOURNALS.test(text) && !HANDS_A_BATCH.test(text);
    const excused = file in ALLOWED || file in PENDING;
    if (unbatched && !excused) out.push(`${file}: journals with no batch for its entry to ride in`);
    if (excused && !unbatched) out.push(`${file}: listed as journaling without a batch, no longer does`);
  }
  for (const file of [...Object.keys(ALLOWED), ...Object.keys(PENDING)])
    if (!(file in files)) out.push(`${file}: listed but not in src`);
  return out;
}

describe("a mutation journals itself, in its own batch", () => {
  it("routes never journal; only doors hold ledgers; a journaling file hands a batch", () => {
    expect(problems(sources)).toEqual([]);
  });

  it("the check sees each way of breaking the rule (synthetic sources)", () => {
    const files = {
      ...sources,
      "src/domains/x/routes.ts": 'serviceCtx(c).journal({ summary: "x" }); c.get("ledger");',
      "src/domains/v/routes.ts": 'import { openLedger } from "../../activity/journal";',
      "src/domains/x/service.ts":
        "export async function put(ctx) { ctx.journal({}); await run(ctx.env.DB); }",
      "src/domains/y/service.ts": "export async function put(ctx) { ctx.journal({}); await ctx.batch([q]); }",
      "src/jobs/z.ts": "const { ledger } = jobCtx(env, clock, 'z'); await ledger.settle(true);",
      // A comment is no call.
      "src/domains/w/routes.ts": "// ctx.journal({}) is the verb's job",
    };
    expect(problems(files)).toEqual([
      "src/domains/x/routes.ts: a route journals (the verb should)",
      "src/domains/x/routes.ts: a route reads the request's ledger",
      "src/domains/v/routes.ts: a route imports the ledger",
      "src/domains/x/service.ts: journals with no batch for its entry to ride in",
      "src/jobs/z.ts: opens or settles a ledger (only the doors do)",
    ]);
  });

  it("an allowance that is no longer needed fails", () => {
    const files = { ...sources, "src/domains/connected-apps/service.ts": "export const x = 1;" };
    expect(problems(files)).toEqual([
      "src/domains/connected-apps/service.ts: listed as journaling without a batch, no longer does",
    ]);
    const { "src/domains/system/demo-steps.ts": _gone, ...rest } = sources;
    expect(problems(rest)).toEqual(["src/domains/system/demo-steps.ts: listed but not in src"]);
  });
});

// A mutating route whose verb never journals gets only the door's envelope-only entry, written
// after its change (not in its batch). Each mutating route of a domain router must reach a
// `journal` call from the verb its route file calls with the request's service context (through
// helpers it hands `ctx` to, same file or imported), unless it is named below with its reason.

/** "METHOD domain/path" of mutating routes whose verb does not journal, and why. */
const UNJOURNALED_VERBS: Record<string, string> = {
  "POST auth/set-password": "a session route: not journaled (NOT_JOURNALED)",
  "POST auth/login": "a session route: not journaled (NOT_JOURNALED)",
  "POST auth/logout": "a session route: not journaled (NOT_JOURNALED)",
  "POST auth/sign-out-all": "a session route: not journaled (NOT_JOURNALED)",
  "POST parse-failures/:failure_id/to-fixture": "always refused on Workers (409): never changes anything",
  "POST templates/:template_id/test": "reads: tries a template on a sample, writes nothing",
  "POST config/test-model-key": "a read through POST (NOT_JOURNALED)",
  "POST config/test-object-backup": "a read through POST (NOT_JOURNALED)",
  "POST data/export": "a read through POST (NOT_JOURNALED)",
  "POST data/export/jobs": "a read through POST: builds the backup zip (NOT_JOURNALED)",
  "POST data/import/preview": "a dry run: stages the upload under a token, journals nothing (NOT_JOURNALED)",
  "POST transactions/search-by-filter": "a read through POST (NOT_JOURNALED)",
  "POST insights/generate": "starts a job (Durable Object slot, queue): no D1 write for an entry to ride in",
};
/**
 * Mutating verbs that never journal today (the door's entry comes after their change): to move.
 * Empty: the category verbs, ignore-rules apply, the override suggestion dismissals and
 * consolidation, and upload-eml (through the pipeline's IngestDeps.ledger) journal in their batch.
 */
const UNJOURNALED_PENDING: Record<string, string> = {};

const importsOf = (file: string, text: string, files: ReadonlySet<string>) => {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["'](\.[^"']*)["']/g)) {
    const target = resolveRelative(file, m[2]!, files);
    if (!target) continue;
    for (const part of m[1]!.split(",")) {
      const name = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .pop();
      if (name) out.set(name, target);
    }
  }
  return out;
};

/** A top-level function's (or arrow const's) text, up to its closing line. */
function functionText(text: string, name: string): string | null {
  const start = new RegExp(
    `(?:^|\\n)(?:export\\s+)?(?:async\\s+function\\s+|function\\s+|const\\s+)${name}\\b`,
  ).exec(text);
  if (!start) return null;
  const rest = text.slice(start.index + 1);
  const end = rest.search(/\n\}\n|\n\};?\n|\n\);?\n/);
  return end < 0 ? rest : rest.slice(0, end + 3);
}

/** Whether `name` in `file` journals, itself or through a function it hands `ctx` to. */
function verbJournals(
  files: Record<string, string>,
  file: string,
  name: string,
  seen = new Set<string>(),
): boolean {
  const key = `${file}#${name}`;
  if (seen.has(key) || seen.size > 40 || !(file in files)) return false;
  seen.add(key);
  const text = stripComments(files[file]!);
  const body = functionText(text, name);
  if (!body) return false;
  // `ctx.journal(`, an optional `ctx.journal?.(`, or an entry handed on (`journal: {ctx, entry}`).
  if (/\.journal\s*(?:\?\.)?\s*\(|\bjournal\s*:/.test(body)) return true;
  const imports = importsOf(file, text, new Set(Object.keys(files)));
  for (const call of body.matchAll(/\b(\w+)\s*\([^()]*\bctx\b/g)) {
    const callee = call[1]!;
    const where = imports.get(callee) ?? (callee !== name && functionText(text, callee) ? file : null);
    if (where && verbJournals(files, where, callee, seen)) return true;
  }
  return false;
}

/** One endpoint's text in a domain's routes.ts: from its declaration to the next export. */
const endpointText = (text: string, name: string) => {
  const start = text.search(new RegExp(`\\b(?:const|class)\\s+${name}\\b`));
  const end = text.indexOf("\nexport ", start + 1);
  return start < 0 ? "" : text.slice(start, end < 0 ? undefined : end);
};

/** "METHOD domain/path" of every mutating domain route whose verb does not journal. */
function unjournaledRoutes(files: Record<string, string>): string[] {
  const names = new Set(Object.keys(files));
  const out: string[] = [];
  for (const [index, raw] of Object.entries(files)) {
    const domain = /^src\/domains\/([^/]+)\/index\.ts$/.exec(index)?.[1];
    if (!domain) continue;
    const text = stripComments(raw);
    const imports = importsOf(index, text, names);
    for (const r of text.matchAll(/\.(post|put|patch|delete)\(\s*"([^"]*)",\s*(\w+)\s*\)/g)) {
      const routeFile = imports.get(r[3]!);
      if (!routeFile?.endsWith("/routes.ts")) continue; // not a route class (the MCP endpoint)
      const routeText = stripComments(files[routeFile]!);
      const route = endpointText(routeText, r[3]!);
      const routeImports = importsOf(routeFile, routeText, names);
      const verbs = [...route.matchAll(/\b(\w+)\s*\(\s*(?:serviceCtx\(c\)|ctx\b)/g)].map((m) => m[1]!);
      const journals = verbs.some((v) => {
        const where = routeImports.get(v);
        return where !== undefined && verbJournals(files, where, v);
      });
      if (!journals) out.push(`${r[1]!.toUpperCase()} ${domain}${r[2]}`);
    }
  }
  return out;
}

describe("every mutating verb journals", () => {
  it("a mutating route's verb reaches ctx.journal, or is named with its reason", () => {
    const found = unjournaledRoutes(sources);
    const named = { ...UNJOURNALED_VERBS, ...UNJOURNALED_PENDING };
    expect(found.filter((r) => !(r in named))).toEqual([]);
    expect(Object.keys(named).filter((r) => !found.includes(r))).toEqual([]);
  });

  it("catches a verb that never journals (synthetic sources)", () => {
    const files = {
      ...sources,
      "src/domains/zz/index.ts":
        'import { Del, Put } from "./routes";\nexport function r(router) {\n  router.put("/:id", Put);\n  router.delete("/:id", Del);\n}\n',
      "src/domains/zz/routes.ts":
        'import { del, put } from "./service";\n' +
        "export class Del { async handle(c) { const ctx = serviceCtx(c);\n return c.json(await del(ctx, 1)); } }\n" +
        "export const Put = route(Base, { handle: async (ctx) => put(ctx, 1) });\n",
      "src/domains/zz/service.ts":
        "export async function put(ctx, id) {\n  await write(ctx, id);\n}\n" +
        "async function write(ctx, id) {\n  ctx.journal({ resourceId: id });\n  await ctx.batch([q(id)]);\n}\n" +
        "export async function del(ctx, id) {\n  await ctx.env.DB.prepare('DELETE FROM zz').run();\n}\n",
    };
    expect(unjournaledRoutes(files).filter((r) => r.includes("zz"))).toEqual(["DELETE zz/:id"]);
  });
});
