import { describe, expect, it } from "vitest";
import { z } from "zod";
import { domainRoute, route } from "../../../src/http/route";
import { sourceTree, stripComments } from "./source-tree";

// DESIGN.md's "URL = router = folder" and "long signatures take one input object", checked on the
// source text. (1) app.ts mounts each /api/v1 prefix once, with a router from one domain folder;
// the router registers only that folder's routes (./routes), and every route in a folder is
// tagged with the folder's name. (2) No function takes six or more positional parameters.
// (3) No test asserts an exact D1 round-trip count (budgets are `≤ N`, where a person waits).

const MOUNT = /openapi\.route\(\s*"(\/api\/v1\/[^"]+)",\s*(\w+)\(\)\s*\)/g;
const IMPORT = /import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g;
const REGISTER = /\.(?:get|post|put|patch|delete)\(\s*"[^"]*",\s*(\w+)\s*\)/g;
const TAG = /domainRoute\(\s*"([^"]+)"\s*\)/g;

/** The name → module map of a file's named imports. */
function namedImports(code: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of code.matchAll(IMPORT))
    for (const raw of m[1]!.split(",")) {
      const name = raw
        .replace(/^\s*type\s+/, "")
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      if (name) out.set(name, m[2]!);
    }
  return out;
}

function routerViolations(sources: Record<string, string>): string[] {
  const problems: string[] = [];
  const app = stripComments(sources["src/app.ts"] ?? "");
  const appImports = namedImports(app);
  const seen = new Map<string, string>();
  for (const [, prefix, router] of app.matchAll(MOUNT)) {
    if (seen.has(prefix!)) problems.push(`${prefix} mounted twice (${seen.get(prefix!)}, ${router})`);
    seen.set(prefix!, router!);
    const folder = /^\.\/domains\/([^/]+)$/.exec(appImports.get(router!) ?? "")?.[1];
    if (!folder) {
      problems.push(`${prefix}: ${router} is not a domain folder's router`);
      continue;
    }
    const index = stripComments(sources[`src/domains/${folder}/index.ts`] ?? "");
    const imports = namedImports(index);
    for (const [, cls] of index.matchAll(REGISTER)) {
      const from = imports.get(cls!) ?? "";
      if (from !== "./routes") problems.push(`${prefix}: ${cls} comes from ${from || "?"}, not ./routes`);
    }
  }
  for (const [file, text] of Object.entries(sources)) {
    const folder = /^src\/domains\/([^/]+)\/routes\.ts$/.exec(file)?.[1];
    if (!folder) continue;
    for (const [, tag] of stripComments(text).matchAll(TAG))
      if (tag !== folder) problems.push(`${file}: tag "${tag}" in folder ${folder}`);
  }
  return problems;
}

/** Functions (declarations and arrow constants) with `limit` or more top-level parameters. */
function longSignatures(sources: Record<string, string>, limit: number): string[] {
  const out: string[] = [];
  const START = /(?:function\s+(\w+)\s*(?:<[^>(]*>)?\s*\(|(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?\()/g;
  for (const [file, text] of Object.entries(sources)) {
    const code = stripComments(text);
    for (const m of code.matchAll(START)) {
      let depth = 1;
      let i = m.index! + m[0].length;
      let count = 0;
      let token = false;
      for (; i < code.length && depth > 0; i++) {
        const c = code[i]!;
        if ("([{<".includes(c)) depth++;
        else if (")]}>".includes(c) && code[i - 1] !== "=") depth--;
        else if (c === "," && depth === 1) {
          if (token) count++;
          token = false;
          continue;
        }
        if (depth >= 1 && !/\s/.test(c)) token = true;
      }
      if (token) count++;
      if (m[2] && !/=>/.test(code.slice(i, i + 80).split("\n")[0] ?? "")) continue; // a call, not an arrow
      if (count >= limit) out.push(`${file}: ${m[1] ?? m[2]} (${count})`);
    }
  }
  return out;
}

describe("URL = router = folder", () => {
  it("one router per /api/v1 prefix, its routes from its folder, tagged with its folder's name", () => {
    expect(routerViolations(sourceTree())).toEqual([]);
  });

  it("fails on a sample violation of each kind (synthetic sources)", () => {
    const sources = {
      "src/app.ts": [
        `import { txRouter } from "./domains/transactions";`,
        `import { uploadRouter } from "./ingest/routes";`,
        `openapi.route("/api/v1/transactions", txRouter());`,
        `openapi.route("/api/v1/transactions", uploadRouter());`,
      ].join("\n"),
      "src/domains/transactions/index.ts": [
        `import { List } from "./routes";`,
        `import { ListAttachments } from "../attachments/routes";`,
        `export function txRouter() { const r = domainRouter(); r.get("/", List); r.get("/:id/attachments", ListAttachments); return r; }`,
      ].join("\n"),
      "src/domains/transactions/routes.ts": `export class List extends domainRoute("search") {}`,
    };
    expect(routerViolations(sources)).toEqual([
      "/api/v1/transactions: ListAttachments comes from ../attachments/routes, not ./routes",
      "/api/v1/transactions mounted twice (txRouter, uploadRouter)",
      "/api/v1/transactions: uploadRouter is not a domain folder's router",
      'src/domains/transactions/routes.ts: tag "search" in folder transactions',
    ]);
  });
});

describe("route(): an endpoint is its schema and a handler", () => {
  it("tags the endpoint, keeps the handler out of the schema and types its data from the schema", () => {
    const Endpoint = route(domainRoute("budget"), {
      operationId: "getX",
      request: { query: z.object({ year: z.number() }) },
      // @ts-expect-error: `yearx` is not a field of the query schema
      handle: async (_c, { query }) => ({ year: query.yearx }),
    });
    const schema = new Endpoint({} as never).getSchema();
    expect(schema.tags).toEqual(["budget"]);
    expect(schema.operationId).toBe("getX");
    expect("handle" in schema).toBe(false);
  });
});

describe("long signatures take one input object", () => {
  it("no function takes six or more positional parameters", () => {
    expect(longSignatures(sourceTree(), 6)).toEqual([]);
  });

  it("counts a synthetic one", () => {
    const sources = {
      "src/a.ts":
        "export async function add<A>(d1: D1, tx: Tx, at: string, after?: A, write = w(d1), more: (x: string) => X[] = () => []) {}",
      "src/b.ts":
        "const f = (a: number, { b, c }: { b: number; c: number }) => a + b + c;\nconst g = h(1, 2, 3, 4, 5, 6);",
    };
    expect(longSignatures(sources, 6)).toEqual(["src/a.ts: add (6)"]);
  });
});

describe("round-trip budgets", () => {
  it("no test asserts an exact D1 round-trip count (a budget is `toBeLessThanOrEqual`)", () => {
    const tests = import.meta.glob<string>("/test/**/*.test.ts", {
      query: "?raw",
      import: "default",
      eager: true,
    });
    const exact = /trips\)?\.(toBe|toEqual)\(\s*\d/;
    const found = Object.entries(tests).flatMap(([file, text]) =>
      text.split("\n").flatMap((line, i) => (exact.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    expect(found).toEqual([]);
    expect(exact.test("expect(tally(counter.trips).trips).toBe(3);")).toBe(true);
    expect(exact.test("expect(tally(counter.trips).trips).toBeLessThanOrEqual(3);")).toBe(false);
  });
});
