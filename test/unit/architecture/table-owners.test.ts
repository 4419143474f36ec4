import { describe, expect, it } from "vitest";
import { resolveRelative, sourceTree, stripComments } from "./source-tree";
import { SHARED_READS, TABLE_OWNERS, WHOLE_DATABASE } from "../../../src/db/owners";

// DESIGN.md's ownership rule, checked on the source text: a table is read and written only by the
// folder src/db/owners.ts names for it, and inside that folder only by its queries files
// (`queries.ts`, `<name>-queries.ts`); every other file calls those queries or the owner's service.
// A file touches a table when it imports the table's drizzle symbol (by name, or through a
// `schema` / `* as` namespace) or names the table after FROM/JOIN/INTO/UPDATE/TABLE in raw SQL.
// Type-only imports do not touch anything. Inside the owner, a file that only DERIVES from the
// symbol (createSelectSchema/createInsertSchema/createUpdateSchema(x), `typeof x`, a column's
// `.enumValues`) reads no rows: its schemas.ts and rules.ts may do that.

/**
 * Deliberate exceptions, each with its reason: `file` may touch `table` outside its owner (or, in
 * the owner, outside its queries files).
 * Keep this short; a stale entry (the file no longer touches the table) fails the test.
 */
const ALLOWED: { file: string; table: string; why: string }[] = [];

/**
 * Not moved yet (issue 24 item 2, in progress): "file table", a touch still to move into the
 * owner's queries. This list only shrinks; a line that no longer occurs fails the test.
 */
const PENDING: string[] = [];

interface Touch {
  table: string;
  write: boolean;
  /** Every use only derives a schema, a type or a column's enum values (no rows read). */
  derived: boolean;
}

const SCHEMA_FILE = /^src\/db\/schema(\.ts|\/[\w-]+\.ts)$/;
const DB_INDEX = /^src\/db(\/index)?\.ts$/;

/** Table symbol → stored name, from the schema sources. */
function tablesOf(sources: Record<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [file, text] of Object.entries(sources)) {
    if (!SCHEMA_FILE.test(file)) continue;
    for (const m of text.matchAll(/export const (\w+) = sqliteTable\(\s*"(\w+)"/g)) out.set(m[1]!, m[2]!);
  }
  return out;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The tables one file touches, and whether it writes them. */
function touchesOf(
  file: string,
  text: string,
  files: ReadonlySet<string>,
  tables: Map<string, string>,
): Touch[] {
  const code = stripComments(text);
  const found = new Map<string, { write: boolean; derived: boolean }>();
  const touch = (table: string, write: boolean, derived = false) => {
    const was = found.get(table) ?? { write: false, derived: true };
    found.set(table, { write: was.write || write, derived: was.derived && derived });
  };
  // Local names bound to a table symbol, and namespaces bound to the schema.
  const locals = new Map<string, string>();
  const namespaces: string[] = [];
  for (const m of code.matchAll(/\bimport\s+(type\s+)?([\w*${}\s,]+?)\s+from\s*["']([^"']+)["']/g)) {
    if (m[1] || !m[3]!.startsWith(".")) continue;
    const target = resolveRelative(file, m[3]!, files);
    if (!target || !(SCHEMA_FILE.test(target) || DB_INDEX.test(target))) continue;
    const clause = m[2]!.trim();
    const star = /^\*\s+as\s+(\w+)$/.exec(clause);
    if (star) {
      namespaces.push(star[1]!);
      continue;
    }
    const names = /\{([\s\S]*)\}/.exec(clause)?.[1]?.split(",") ?? [];
    for (const raw of names) {
      const spec = raw.trim();
      if (!spec || spec.startsWith("type ")) continue;
      const [name, alias] = spec.split(/\s+as\s+/).map((s) => s.trim());
      if (name === "schema") namespaces.push(alias ?? name);
      else if (tables.has(name!)) locals.set(alias ?? name!, name!);
    }
  }
  for (const ns of namespaces)
    for (const sym of tables.keys())
      if (new RegExp(`\\b${ns}\\.${sym}\\b`).test(code)) locals.set(`${ns}.${sym}`, sym);
  // `const t = schema.transactions;` style aliases.
  for (const [local, sym] of [...locals])
    for (const m of code.matchAll(new RegExp(`\\bconst\\s+(\\w+)\\s*=\\s*${escapeRe(local)}\\s*;`, "g")))
      locals.set(m[1]!, sym);
  // Imports and quoted strings removed: a word in a description is no use of the symbol.
  const body = code
    .replace(/\bimport\s[^;]*?\bfrom\s*["'][^"']+["'];?/g, "")
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');
  for (const [local, sym] of locals) {
    const table = tables.get(sym)!;
    const write = new RegExp(`\\.(insert|update|delete)\\(\\s*${escapeRe(local)}\\s*\\)`).test(code);
    touch(table, write, onlyDerives(body, local));
  }
  for (const table of tables.values()) {
    if (
      new RegExp(`\\b(INSERT(\\s+OR\\s+\\w+)?\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+["\`]?${table}\\b`).test(code)
    )
      touch(table, true);
    else if (new RegExp(`\\b(FROM|JOIN|TABLE)\\s+["\`]?${table}\\b`).test(code)) touch(table, false);
  }
  return [...found].map(([table, t]) => ({ table, ...t }));
}

/** Whether every use of `local` in `body` (imports removed) derives from the table, reading no rows. */
function onlyDerives(body: string, local: string): boolean {
  for (const m of body.matchAll(new RegExp(`(?<![\\w$.])${escapeRe(local)}(?![\\w$])`, "g"))) {
    const before = body.slice(0, m.index);
    const after = body.slice(m.index + local.length);
    if (/\bconst\s+\w+\s*=\s*$/.test(before) && /^\s*;/.test(after)) continue; // an alias, judged on its own
    if (/[{,]\s*$/.test(before) && /^\s*:/.test(after)) continue; // an object key of the same name
    if (/\b(createSelectSchema|createInsertSchema|createUpdateSchema)\(\s*$/.test(before)) continue;
    if (/\btypeof\s+$/.test(before)) continue;
    if (/^\.\w+\.enumValues\b/.test(after)) continue;
    return false;
  }
  return true;
}

const QUERIES_FILE = /(^|\/)([\w-]+-)?queries\.ts$/;

/**
 * Every touch outside its owner, as "file touches table" (or "writes" for a shared read), and
 * every touch inside the owner by a file that is not a queries file (a derivation excepted).
 */
function ownershipViolations(
  sources: Record<string, string>,
  owners: Record<string, string>,
  allowed: { file: string; table: string }[] = [],
): string[] {
  const files = new Set(Object.keys(sources));
  const tables = tablesOf(sources);
  const problems: string[] = [];
  for (const [file, text] of Object.entries(sources).sort(([a], [b]) => a.localeCompare(b))) {
    if (WHOLE_DATABASE.some((dir) => file.startsWith(dir))) continue;
    for (const { table, write, derived } of touchesOf(file, text, files, tables)) {
      const owner = owners[table];
      const verb = write ? "writes" : "touches";
      if (owner && file.startsWith(owner)) {
        if (
          !QUERIES_FILE.test(file) &&
          !derived &&
          !allowed.some((a) => a.file === file && a.table === table)
        )
          problems.push(`${file} ${verb} ${table} (owner: ${owner}, outside its queries files)`);
        continue;
      }
      if (allowed.some((a) => a.file === file && a.table === table)) continue;
      if (!write && SHARED_READS.includes(table) && QUERIES_FILE.test(file)) continue;
      problems.push(`${file} ${verb} ${table} (owner: ${owner ?? "none"})`);
    }
  }
  return problems;
}

describe("one owner per table", () => {
  const sources = sourceTree();
  const tables = [...tablesOf(sources).values()].sort();

  it("every table of the schema has an owner folder that exists", () => {
    expect(tables.length).toBeGreaterThan(30);
    expect(tables.filter((t) => !(t in TABLE_OWNERS))).toEqual([]);
    expect(Object.keys(TABLE_OWNERS).filter((t) => !tables.includes(t))).toEqual([]);
    const folders = new Set(Object.values(TABLE_OWNERS));
    const files = Object.keys(sources);
    expect([...folders].filter((dir) => !files.some((f) => f.startsWith(dir)))).toEqual([]);
  });

  it("no file outside a table's owner touches it", () => {
    const found = ownershipViolations(sources, TABLE_OWNERS, ALLOWED);
    const pair = (p: string) => p.replace(/ (writes|touches) (\w+) \(owner: .*\)$/, " $2");
    expect(found.filter((p) => !PENDING.includes(pair(p)))).toEqual([]);
    expect(PENDING.filter((p) => !found.some((f) => pair(f) === p))).toEqual([]);
  });

  it("every allowance is still needed", () => {
    const needed = ownershipViolations(sources, TABLE_OWNERS);
    expect(
      ALLOWED.filter((a) => !needed.some((p) => p.startsWith(`${a.file} `) && p.includes(` ${a.table} `))),
    ).toEqual([]);
  });

  it("the checker sees symbols, namespaces, aliases and raw SQL (synthetic sources)", () => {
    const synthetic = {
      "src/db/schema.ts": `export const budgetConfig = sqliteTable("budget_config", {});
export const transactions = sqliteTable(\n  "transactions", {});`,
      "src/db/index.ts": `import * as schema from "./schema";\nexport { schema };`,
      "src/domains/budget/queries.ts": `import { budgetConfig } from "../../db/schema";`,
      "src/domains/journal/service.ts": `import { budgetConfig as b } from "../../db/schema";`,
      "src/domains/income/queries.ts": `import { schema } from "../../db";\nconst t = schema.transactions;\nawait db.select().from(t);`,
      "src/domains/tax/queries.ts": `import { schema } from "../../db";\nconst t = schema.transactions;\ndb.update(t).set({});`,
      "src/ingest/context.ts": "const rows = await db.all(sql`SELECT doc FROM budget_config WHERE id = 1`);",
      "src/ingest/types.ts": `import type { budgetConfig } from "../db/schema";\n// FROM budget_config`,
      "src/domains/insights/context.ts": `import * as s from "../../db/schema";\nawait db.select().from(s.transactions);`,
      "src/domains/data/rules.ts": `import { budgetConfig } from "../../db/schema";`,
      // Inside the owner: only queries files read or write; a schema or a type derived is no read.
      "src/domains/budget/rename.ts": `import { budgetConfig } from "../../db/schema";
export async function f(db) {\n  const b = budgetConfig;\n  return db.select().from(b);\n}`,
      "src/domains/budget/history-queries.ts": `import { budgetConfig as c } from "../../db/schema";\ndb.update(c).set({});`,
      "src/domains/budget/schemas.ts": `import { budgetConfig } from "../../db/schema";
export const Row = createSelectSchema(budgetConfig).pick({ kind: true });
export const KINDS = budgetConfig.kind.enumValues;\nexport type R = typeof budgetConfig.$inferSelect;`,
      "src/domains/budget/rules.ts": `import { budgetConfig } from "../../db/schema";
export const KINDS = budgetConfig.kind.enumValues;\nexport const n = (db) => db.$count(budgetConfig);`,
      "src/domains/transactions/bulk.ts": "await db.run(sql`UPDATE transactions SET Category = 'x'`);",
      "src/domains/transactions/schemas.ts": `import { schema } from "../../db";\nexport const Tx = createSelectSchema(schema.transactions);`,
      "src/domains/journal/schemas.ts": `import { budgetConfig } from "../../db/schema";\nexport const B = createSelectSchema(budgetConfig);`,
    };
    expect(
      ownershipViolations(synthetic, {
        budget_config: "src/domains/budget/",
        transactions: "src/domains/transactions/",
      }),
    ).toEqual([
      "src/domains/budget/rename.ts touches budget_config (owner: src/domains/budget/, outside its queries files)",
      "src/domains/budget/rules.ts touches budget_config (owner: src/domains/budget/, outside its queries files)",
      "src/domains/insights/context.ts touches transactions (owner: src/domains/transactions/)",
      "src/domains/journal/schemas.ts touches budget_config (owner: src/domains/budget/)",
      "src/domains/journal/service.ts touches budget_config (owner: src/domains/budget/)",
      "src/domains/tax/queries.ts writes transactions (owner: src/domains/transactions/)",
      "src/domains/transactions/bulk.ts writes transactions (owner: src/domains/transactions/, outside its queries files)",
      "src/ingest/context.ts touches budget_config (owner: src/domains/budget/)",
    ]);
  });
});
