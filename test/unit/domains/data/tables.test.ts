import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../../../src/db/schema";
import { NEVER_IMPORTED, IMPORT_TABLES } from "../../../../src/domains/data/import-rules";
import { EXCLUDED_TABLES, EXPORTED_TABLES } from "../../../../src/domains/data/rules";

const tables = Object.values(schema)
  .filter((v) => is(v, SQLiteTable))
  .map((v) => getTableConfig(v as SQLiteTable).name)
  .sort();

describe("every table has a place in the backup", () => {
  it("is exported or excluded (with its reason in rules.ts), never both, never forgotten", () => {
    const exported = new Set<string>(EXPORTED_TABLES);
    const excluded = new Set<string>(EXCLUDED_TABLES);
    for (const t of tables) expect(exported.has(t) !== excluded.has(t), t).toBe(true);
    for (const t of [...exported, ...excluded]) expect(tables, t).toContain(t);
  });

  it("every exported table but the ledger is restored by import; secrets are never imported", () => {
    for (const t of EXPORTED_TABLES) {
      if (t === "activity_log") continue;
      expect(Object.keys(IMPORT_TABLES), t).toContain(t);
    }
    for (const t of ["api_tokens", "auth_settings", "sessions", "login_throttle", "vendor_connections"]) {
      expect(NEVER_IMPORTED.has(t), t).toBe(true);
      expect(Object.keys(IMPORT_TABLES)).not.toContain(t);
    }
  });
});
