import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../../../src/db/schema";
import { IMPORT_TABLES, NEVER_IMPORTED, toStored } from "../../../../src/domains/data/import-rules";
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

describe("JSON columns of an imported row", () => {
  const template = {
    id: "tpl_1",
    name: "Bank",
    institution: "Bank",
    sender_domain: "bank.example",
    subject_words: ["alert"],
    transaction_type: "purchase",
    example: "e",
    match_count: 0,
    created_at: "2025-01-01T00:00:00Z",
    updated_at: "2025-01-01T00:00:00Z",
  };
  const def = IMPORT_TABLES.alert_templates!;
  it("a value is stored as its JSON text; JSON text is kept as it is", () => {
    const row = toStored("alert_templates", def, { ...template, pattern: { entries: [] } }, true);
    expect(row).toMatchObject({ pattern: '{"entries":[]}', subject_words: '["alert"]' });
    expect(toStored("alert_templates", def, { ...template, pattern: '{"a":1}' }, true)).toMatchObject({
      pattern: '{"a":1}',
    });
  });
  it("text that is not JSON refuses a row whose column is required, and is dropped from an optional one", () => {
    expect(toStored("alert_templates", def, { ...template, pattern: "{bad" }, true)).toBe(
      "pattern is not JSON",
    );
    const tx = toStored(
      "transactions",
      IMPORT_TABLES.transactions!,
      {
        ForwardedTo: "a@b.c",
        DateFileName: "2025.06.01_10.00_x.eml",
        Amount: 1250,
        CategoryAudit: "{bad",
        ExtractionAudit: "[1]",
      },
      true,
    );
    expect(tx).toMatchObject({ CategoryAudit: null, ExtractionAudit: "[1]" });
  });
});
