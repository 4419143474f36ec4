import { getTableColumns, is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../../../src/db/schema";
import { IMPORT_TABLES, SHAPED_JSON, toStored } from "../../../../src/domains/data/import-rules";
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

  it("every exported table but the ledger and trust is restored by import; secrets are never imported", () => {
    for (const t of EXPORTED_TABLES) {
      // The ledger is never replayed; sender trust is exported to read but never restored (issue 35:
      // a backup carries data, never trust).
      if (t === "activity_log" || t === "sender_trust") continue;
      expect(Object.keys(IMPORT_TABLES), t).toContain(t);
    }
    // Only IMPORT_TABLES are read from a zip: the secrets and rebuildable state (EXCLUDED_TABLES) and
    // the ledger never are, even when a (hand-made) zip carries them.
    for (const t of [...EXCLUDED_TABLES, "activity_log", "sender_trust"])
      expect(Object.keys(IMPORT_TABLES), t).not.toContain(t);
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

/** JSON columns a restore may fill whose readers forgive a value out of shape, and how. */
const FORGIVING: Record<string, string> = {
  "transactions.CategoryAudit": "read as absent (ingest/stored.ts fallback)",
  "transactions.ExtractionAudit": "read as absent (ingest/stored.ts fallback)",
  "transactions.TransactionContext": "read as absent (ingest/stored.ts fallback)",
  "parse_failures.detail": "read as empty (quarantine readDetail fallback)",
  "alert_templates.subject_words": "read as none (templates/stored.ts fallback)",
  "alert_templates.pattern": "read as no template (templates/stored.ts fallback)",
  "insight_briefings.validation": "read as unchecked (insights parseValidation fallback)",
  "attachments.parse_json": "read as unparsed (attachments/stored.ts fallback)",
  "statements.warnings": "read as no warnings (statements/stored.ts fallback)",
  "tax_mapping.data": "parseMapping: the packaged mapping is used, logged",
  "budget_config.data": "readBudgetDoc fallback, then parseTargets/parseGroups",
  "app_config.data": "parseStored: a restore with an invalid settings field is a 422 in words",
};

describe("every restorable JSON column is checked or forgiven", () => {
  it("each JSON-mode column of an imported table has a shape check (SHAPED_JSON) or a forgiving reader", () => {
    const columns = Object.entries(IMPORT_TABLES).flatMap(([name, def]) =>
      Object.values(getTableColumns(def.table))
        .filter((c) => c.dataType === "json")
        .map((c) => `${name}.${c.name}`),
    );
    expect(columns.length).toBeGreaterThan(10);
    expect(columns.filter((c) => !(c in SHAPED_JSON) && !(c in FORGIVING))).toEqual([]);
    expect(Object.keys(SHAPED_JSON).filter((c) => !columns.includes(c))).toEqual([]);
    expect(Object.keys(FORGIVING).filter((c) => !columns.includes(c))).toEqual([]);
  });

  it("a value out of its column's shape refuses a required column's row and empties an optional one", () => {
    const layout = {
      id: "lay_1",
      name: "Bank",
      institution: "Bank",
      fingerprint: "f",
      header: [],
      marks: { nope: true },
      created_at: "2025-01-01T00:00:00Z",
      updated_at: "2025-01-01T00:00:00Z",
    };
    expect(toStored("statement_layouts", IMPORT_TABLES.statement_layouts!, layout, true)).toBe(
      "marks is not in its shape",
    );
    const row = toStored(
      "statement_rows",
      IMPORT_TABLES.statement_rows!,
      {
        statement_id: "stmt_1",
        tx_index: 0,
        row_id: "sr_1",
        date: "2025-01-02",
        raw_description: "SHOP",
        cleaned_description: "SHOP",
        amount: 1250,
        type: "debit",
        reconcile_tier: "new",
        suggested_category: "Shopping",
        action: "import",
        candidates: [{ nope: 1 }],
      },
      true,
    );
    expect(row).toMatchObject({ row_id: "sr_1", candidates: null });
  });
});
