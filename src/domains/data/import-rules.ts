/**
 * Reading a backup zip (pure, no I/O): the manifest check, one JSON array per table, and each row
 * checked against the table's columns and turned into what D1 stores. The zip speaks SPEC.md's
 * decimal `Amount`; rows become integer cents here (a manifest marked `"money": "cents"` is taken
 * as cents). Secrets and caches are never read, whatever the zip holds.
 */
import { getTableColumns } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { unzipSync } from "fflate";
import * as t from "../../db/schema";
import { validationError } from "../../lib/errors";
import { toCents } from "../../lib/money";

export type Row = Record<string, unknown>;
export interface TableDef {
  table: SQLiteTable;
  key: readonly string[];
  /** Data tables follow the strategy; config lists are replaced whole when apply_config is set. */
  kind: "data" | "config";
  /** The config_versions list name, when the table is a versioned list. */
  list?: string;
}

/** What an import restores, in write order. The activity ledger records the import; it is not replayed. */
export const IMPORT_TABLES: Record<string, TableDef> = {
  transactions: { table: t.transactions, key: ["ForwardedTo", "DateFileName"], kind: "data" },
  attention_queue: { table: t.attentionQueue, key: ["ForwardedTo", "DateFileName"], kind: "data" },
  parse_failures: { table: t.parseFailures, key: ["id"], kind: "data" },
  alert_templates: { table: t.alertTemplates, key: ["id"], kind: "data" },
  day_summaries: { table: t.daySummaries, key: ["user_id", "day"], kind: "data" },
  insight_briefings: { table: t.insightBriefings, key: ["id"], kind: "data" },
  attachments: { table: t.attachments, key: ["id"], kind: "data" },
  statements: { table: t.statements, key: ["id"], kind: "data" },
  statement_rows: { table: t.statementRows, key: ["statement_id", "tx_index"], kind: "data" },
  statement_csv_mappings: { table: t.statementCsvMappings, key: ["signature"], kind: "config" },
  statement_layouts: { table: t.statementLayouts, key: ["id"], kind: "config" },
  statement_row_keys: { table: t.statementRowKeys, key: ["statement_id", "tx_index"], kind: "data" },
  tax_overrides: { table: t.taxOverrides, key: ["tx_forwarded_to", "tx_date_file_name"], kind: "data" },
  tax_mapping: { table: t.taxMapping, key: ["id"], kind: "config" },
  categories: { table: t.categories, key: ["name"], kind: "config", list: "categories" },
  overrides: { table: t.overrides, key: ["company"], kind: "config", list: "overrides" },
  merchant_aliases: { table: t.merchantAliases, key: ["raw_name"], kind: "config", list: "merchant_aliases" },
  ignore_rules: { table: t.ignoreRules, key: ["pattern"], kind: "config", list: "ignore_rules" },
  dismissed_suggestions: {
    table: t.dismissedSuggestions,
    key: ["key"],
    kind: "config",
    list: "dismissed_suggestions",
  },
  dismissed_ignore_suggestions: {
    table: t.dismissedIgnoreSuggestions,
    key: ["merchant"],
    kind: "config",
    list: "dismissed_ignore_suggestions",
  },
  budget_config: { table: t.budgetConfig, key: ["user_id", "year", "kind"], kind: "config" },
  app_config: { table: t.appConfig, key: ["id"], kind: "config" },
  user_mappings: { table: t.userMappings, key: ["ForwardedTo"], kind: "config" },
};

/** Never imported, even when a (hand-made) zip carries them. */
export const NEVER_IMPORTED = new Set([
  "api_tokens",
  "auth_settings",
  "sessions",
  "login_throttle",
  "vendor_connections",
  "embeddings",
  "kv_state",
  "poller_state",
  "activity_log",
]);

const JSON_COLUMNS = new Set(["CategoryAudit", "ExtractionAudit", "TransactionContext", "data", "detail"]);
export const MAX_BACKUP_BYTES = 50 * 1024 * 1024;

export interface InvalidRow {
  table: string;
  row: Row;
  reason: string;
}
export interface ParsedBackup {
  exportedAt: string | null;
  tables: Record<string, Row[]>;
  invalid: InvalidRow[];
}

const bad = (msg: string) => validationError([{ loc: ["body", "file"], msg, type: "value_error" }], msg);

/** Unzips and checks a backup; a file that is not one is a 422 naming what is wrong. */
export function parseBackup(bytes: Uint8Array): ParsedBackup {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes);
  } catch {
    throw bad("The file is not a readable zip archive");
  }
  const manifest = readJson(files, "manifest.json");
  if (!isObject(manifest) || manifest.format !== "finance-journal-backup")
    throw bad("The zip has no Finance Journal backup manifest (manifest.json)");
  if (manifest.format_version !== 1)
    throw bad(`Backup format version ${String(manifest.format_version)} is not supported (expected 1)`);
  const cents = manifest.money === "cents";
  const tables: Record<string, Row[]> = {};
  const invalid: InvalidRow[] = [];
  for (const [name, def] of Object.entries(IMPORT_TABLES)) {
    if (!files[`${name}.json`]) continue;
    const rows = readJson(files, `${name}.json`);
    if (!Array.isArray(rows)) throw bad(`${name}.json is not a JSON array`);
    tables[name] = [];
    for (const raw of rows) {
      const out = toStored(name, def, raw, cents);
      if (typeof out === "string") invalid.push({ table: name, row: isObject(raw) ? raw : {}, reason: out });
      else tables[name].push(out);
    }
  }
  return {
    exportedAt: typeof manifest.exported_at === "string" ? manifest.exported_at : null,
    tables,
    invalid,
  };
}

function readJson(files: Record<string, Uint8Array>, name: string): unknown {
  const f = files[name];
  if (!f) return undefined;
  try {
    return JSON.parse(
      new TextDecoder("utf-8", { fatal: true } as ConstructorParameters<typeof TextDecoder>[1]).decode(f),
    );
  } catch {
    throw bad(`${name} is not valid JSON`);
  }
}

const isObject = (v: unknown): v is Row => typeof v === "object" && v !== null && !Array.isArray(v);

/** One exported row → the stored row, or the reason it cannot be imported. */
export function toStored(name: string, def: TableDef, raw: unknown, cents: boolean): Row | string {
  if (!isObject(raw)) return "not an object";
  const out: Row = {};
  for (const [prop, col] of Object.entries(getTableColumns(def.table))) {
    let v = raw[col.name];
    if (v !== undefined && v !== null && JSON_COLUMNS.has(col.name) && typeof v !== "string")
      v = JSON.stringify(v);
    if (v === undefined || v === null) {
      if (col.notNull && !col.hasDefault) return `${col.name} is missing`;
      if (v === null) out[prop] = null;
      continue;
    }
    if (col.dataType === "number") {
      if (typeof v !== "number" || !Number.isFinite(v)) return `${col.name} is not a number`;
      if (name === "transactions" && col.name === "Amount") {
        if (Math.abs(v) > 1e11) return "Amount is out of range";
        v = cents ? Math.round(v) : toCents(v);
      } else if (!Number.isInteger(v)) return `${col.name} is not an integer`;
    } else if (typeof v !== "string") return `${col.name} is not text`;
    out[prop] = v;
  }
  for (const k of def.key)
    if (typeof out[k] !== "string" && typeof out[k] !== "number") return `${k} is missing`;
  return out;
}

/** The key of a stored row (NOCASE keys compared lowercased, as the tables compare them). */
export const rowKey = (def: TableDef, row: Row) =>
  def.key
    .map((k) => (typeof row[k] === "string" ? (row[k] as string).toLowerCase() : String(row[k])))
    .join("\u0001");

/** Whether the stored row equals the imported one on the imported row's columns (JSON parsed). */
export function sameRow(imported: Row, stored: Row): boolean {
  for (const [k, v] of Object.entries(imported)) {
    const w = stored[k];
    if (JSON_COLUMNS.has(k) && typeof v === "string" && typeof w === "string") {
      if (canonicalJson(v) !== canonicalJson(w)) return false;
    } else if ((v ?? null) !== (w ?? null)) return false;
  }
  return true;
}

function canonicalJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}
