import { describe, expect, it } from "vitest";
import { resolveRelative, sourceTree, stripComments } from "./source-tree";

// DESIGN.md's import rules, checked on the source text. (1) Layers point one way at run time:
// lib ← db ← domain queries ← domain services ← doors (routes, MCP, jobs, OAuth, src/http, app,
// index); a file never imports a higher layer (type-only imports are erased at build time and are
// allowed). A queries file may use a domain file only when that file is pure (no database, no I/O:
// it imports nothing but lib, db/json, db/schema and other pure files). (2) Only the HTTP edge may
// import hono, chanfana or src/http/. (3) src/http sits on no import cycle with the code it serves.

/** The only files that may import hono, chanfana or src/http/. Everything else under src/ may not. */
const EDGE = [
  /^src\/http\//,
  /^src\/app\.ts$/,
  /^src\/index\.ts$/,
  // The Worker's fetch front (wraps the app and the OAuth provider; index.ts's fetch calls it).
  /^src\/oauth\/front\.ts$/,
  /^src\/domains\/[^/]+\/index\.ts$/,
  /^src\/domains\/[^/]+\/routes\.ts$/,
];
/** HTTP machinery by package name: hono (and its middleware packages) and chanfana. */
const HTTP_PACKAGE = /^(hono|chanfana|@hono\/[^/]+)(\/.*)?$/;

interface Import {
  spec: string;
  /** Erased at build time (`import type`, all-`type` specifiers, `import("x").T` in a type). */
  typeOnly: boolean;
}

const STATIC = /\b(import|export)\s+(type\s+)?([\w*${}\s,]*?\s*from\s*)?["']([^"']+)["']/g;
const DYNAMIC = /(typeof\s+)?\bimport\(\s*["']([^"']+)["']\s*\)(\.\w+)?/g;

function importsOf(text: string): Import[] {
  const code = stripComments(text);
  const out: Import[] = [];
  for (const m of code.matchAll(STATIC)) {
    const clause = (m[3] ?? "").replace(/\s*from\s*$/, "").trim();
    const braces = /^\{([\s\S]*)\}$/.exec(clause);
    const names =
      braces?.[1]
        ?.split(",")
        .map((s) => s.trim())
        .filter(Boolean) ?? [];
    const allTyped = names.length > 0 && names.every((n) => n.startsWith("type "));
    out.push({ spec: m[4]!, typeOnly: Boolean(m[2]) || allTyped });
  }
  for (const m of code.matchAll(DYNAMIC)) {
    const member = m[3];
    out.push({ spec: m[2]!, typeOnly: Boolean(m[1]) || (member !== undefined && member !== ".then") });
  }
  return out;
}

const isEdge = (path: string) => EDGE.some((re) => re.test(path));
const isHttp = (path: string) => path.startsWith("src/http/");

/** The layers, lowest first; a file's layer is the first that matches. `ingest`, `categorize`,
 * `notify` and `ai` are domains without a router (they sit in the domain layer, like src/domains). */
const LAYERS: readonly (readonly [string, RegExp])[] = [
  ["lib", /^src\/(lib\/|env\.ts$|wasm\.d\.ts$)/],
  ["db", /^src\/db\//],
  [
    "doors",
    /^src\/(http|jobs|oauth)\/|^src\/(app|index)\.ts$|^src\/domains\/[^/]+\/(index|routes)\.ts$|^src\/domains\/mcp\//,
  ],
  ["queries", /^src\/(domains|ingest|categorize)\/(.*\/)?([\w-]*-)?queries(\.ts$|\/)/],
  ["domains", /^src\/(domains|ingest|categorize|notify|ai)\//],
];
const RANK: Record<string, number> = { lib: 0, db: 1, queries: 2, domains: 3, doors: 4 };
const layerOf = (path: string) => LAYERS.find(([, re]) => re.test(path))?.[0] ?? "doors";
/** What a pure file may import at run time besides other pure files. */
const PURE_BASE = /^src\/(lib\/|env\.ts$|db\/json\.ts$|db\/schema(\.ts$|\/))/;

/** Every runtime import that points up a layer, or from a queries file to an impure domain file. */
function layerViolations(runtimeEdges: ReadonlyMap<string, readonly string[]>): string[] {
  const pure = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const [file, targets] of runtimeEdges) {
      if (pure.has(file) || !targets.every((t) => PURE_BASE.test(t) || pure.has(t))) continue;
      pure.add(file);
      grew = true;
    }
  }
  const problems: string[] = [];
  for (const [file, targets] of runtimeEdges) {
    const from = layerOf(file);
    for (const target of targets) {
      const to = layerOf(target);
      if (RANK[to]! > RANK[from]! && !(from === "queries" && to === "domains" && pure.has(target)))
        problems.push(`${file} (${from}) imports ${target} (${to})`);
    }
  }
  return problems;
}

/** Every broken rule, one line each: direction violations, then cycles through src/http. */
function importViolations(sources: Record<string, string>): string[] {
  const files = new Set(Object.keys(sources));
  const problems: string[] = [];
  const runtimeEdges = new Map<string, string[]>();
  for (const [file, text] of Object.entries(sources)) {
    const edges: string[] = [];
    for (const imp of importsOf(text)) {
      const target = imp.spec.startsWith(".") ? resolveRelative(file, imp.spec, files) : null;
      const forbidden = HTTP_PACKAGE.test(imp.spec) || (target !== null && isHttp(target));
      if (forbidden && !isEdge(file)) problems.push(`${file} imports ${target ?? imp.spec}`);
      if (target && !imp.typeOnly) edges.push(target);
    }
    runtimeEdges.set(file, edges);
  }
  for (const cycle of cycles(runtimeEdges)) {
    if (cycle.some(isHttp) && cycle.some((f) => !isHttp(f)))
      problems.push(`import cycle through src/http: ${cycle.join(" → ")} → ${cycle[0]}`);
  }
  return problems;
}

/** One cycle per strongly connected component of more than one file (Tarjan), as a path. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc = new Set<string>();
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.add(w);
    } while (w !== v);
    if (scc.size > 1) out.push(pathWithin(graph, scc));
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** A concrete cycle inside a component: from its first file (an http one when there is one). */
function pathWithin(graph: Map<string, string[]>, scc: Set<string>): string[] {
  const members = [...scc].sort();
  const start = members.find(isHttp) ?? members[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!scc.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return path;
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return members;
}

describe("import direction", () => {
  it("each layer imports only lower layers at run time (and queries only pure domain files)", () => {
    const sources = sourceTree();
    const files = new Set(Object.keys(sources));
    const edges = new Map<string, string[]>();
    for (const [file, text] of Object.entries(sources)) {
      const targets = importsOf(text)
        .filter((i) => !i.typeOnly && i.spec.startsWith("."))
        .map((i) => resolveRelative(file, i.spec, files));
      edges.set(
        file,
        targets.filter((t): t is string => t !== null),
      );
    }
    expect(layerViolations(edges)).toEqual([]);
  });

  it("the layer checker fails on a sample violation of each pair (synthetic graph)", () => {
    const graph = new Map<string, string[]>([
      ["src/lib/money.ts", ["src/db/index.ts"]],
      ["src/db/kv.ts", ["src/domains/merchants/schemas.ts", "src/lib/money.ts"]],
      ["src/domains/merchants/schemas.ts", ["src/lib/money.ts"]],
      [
        "src/domains/merchants/queries.ts",
        ["src/domains/merchants/rules.ts", "src/domains/merchants/service.ts"],
      ],
      ["src/domains/merchants/rules.ts", ["src/lib/money.ts", "src/db/json.ts"]],
      [
        "src/domains/merchants/service.ts",
        ["src/db/index.ts", "src/jobs/slot.ts", "src/domains/merchants/queries.ts"],
      ],
      [
        "src/ingest/dedup.ts",
        ["src/domains/transactions/ingest-queries.ts", "src/domains/merchants/index.ts"],
      ],
      ["src/domains/transactions/ingest-queries.ts", ["src/db/index.ts"]],
      ["src/domains/merchants/index.ts", ["src/domains/merchants/service.ts", "src/http/route.ts"]],
      ["src/jobs/slot.ts", ["src/lib/money.ts"]],
      ["src/http/route.ts", ["src/lib/money.ts"]],
    ]);
    expect(layerViolations(graph)).toEqual([
      "src/lib/money.ts (lib) imports src/db/index.ts (db)",
      "src/db/kv.ts (db) imports src/domains/merchants/schemas.ts (domains)",
      "src/domains/merchants/queries.ts (queries) imports src/domains/merchants/service.ts (domains)",
      "src/domains/merchants/service.ts (domains) imports src/jobs/slot.ts (doors)",
      "src/ingest/dedup.ts (domains) imports src/domains/merchants/index.ts (doors)",
    ]);
    expect(layerOf("src/domains/templates/engine/queries.ts")).toBe("queries");
    expect(layerOf("src/domains/statements/import-revert-queries.ts")).toBe("queries");
    expect(layerOf("src/domains/mcp/tools/read.ts")).toBe("doors");
    expect(layerOf("src/categorize/resolver.ts")).toBe("domains");
  });

  it("services, rules, queries, ingest, jobs, lib and db never import hono, chanfana or src/http", () => {
    const sources = sourceTree();
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(importViolations(sources)).toEqual([]);
  });

  it("the checker catches a bad import of each kind (synthetic sources)", () => {
    const sources = {
      "src/http/errors.ts": `import { HTTPException } from "hono/http-exception";`,
      "src/http/auth.ts": `import { config } from "../domains/config";\nexport const auth = 1;`,
      "src/domains/config/index.ts": `import { Hono } from "hono";\nimport { auth } from "../../http/auth";`,
      "src/domains/config/routes.ts": `import { OpenAPIRoute } from "chanfana";`,
      "src/domains/config/service.ts": `import {\n  Hono,\n} from "hono";`,
      "src/domains/config/rules.ts": `import type { AppContext } from "../../http/context";`,
      "src/http/context.ts": "export type AppContext = {};",
      "src/ingest/pipeline.ts": `const m = await import("../http/errors");`,
      "src/lib/errors.ts": `export { Str } from "chanfana";\n// import { Hono } from "hono";`,
      "src/jobs/cron.ts": `/* import "../http/auth" */ import { x } from "@hono/zod-validator";`,
      "src/db/index.ts": `import { sql } from "drizzle-orm";\nimport { a } from "./schema";`,
      "src/db/schema.ts": `export const a = 1; // see http://example.com/hono`,
    };
    expect(importViolations(sources)).toEqual([
      "src/domains/config/service.ts imports hono",
      "src/domains/config/rules.ts imports src/http/context.ts",
      "src/ingest/pipeline.ts imports src/http/errors.ts",
      "src/lib/errors.ts imports chanfana",
      "src/jobs/cron.ts imports @hono/zod-validator",
      "import cycle through src/http: src/http/auth.ts → src/domains/config/index.ts → src/http/auth.ts",
    ]);
  });

  it("type-only imports count for direction but not for cycles", () => {
    expect(importsOf(`import { type A, type B } from "./a";`)).toEqual([{ spec: "./a", typeOnly: true }]);
    expect(importsOf(`import { type A, b } from "./a";`)).toEqual([{ spec: "./a", typeOnly: false }]);
    expect(importsOf(`let x: import("./slot").JobSlot;`)).toEqual([{ spec: "./slot", typeOnly: true }]);
    const typeCycle = {
      "src/http/auth.ts": `import type { Cfg } from "../domains/config/index";`,
      "src/domains/config/index.ts": `import { auth } from "../../http/auth";`,
    };
    expect(importViolations(typeCycle)).toEqual([]);
  });

  it("reports a longer cycle through src/http as a path", () => {
    const sources = {
      "src/domains/activity/index.ts": `import { ledger } from "../../http/activity";`,
      "src/domains/activity/service.ts": `import { activityRouter } from "./index";`,
      "src/http/activity.ts": `import { revert } from "../domains/activity/service.js";`,
      "src/domains/activity/rules.ts": `import { revert } from "./service";`,
    };
    expect(importViolations(sources)).toEqual([
      "import cycle through src/http: src/http/activity.ts → src/domains/activity/service.ts → " +
        "src/domains/activity/index.ts → src/http/activity.ts",
    ]);
  });
});
