/**
 * What a backup restores (pure, no I/O): the tables, and each row checked against the table's
 * columns and turned into what D1 stores (the zip itself is read by backup-read.ts). The zip speaks SPEC.md's
 * decimal `Amount`; rows become integer cents here (a manifest marked `"money": "cents"` is taken
 * as cents). Secrets and caches are never read, whatever the zip holds.
 */
import { getTableColumns } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as t from "../../db/schema";
import { toCents } from "../../lib/money";
import { readLayoutHeader, readLayoutMarks } from "../statements/layouts/stored";
import { readCandidates, readCsvMapping, readCsvState } from "../statements/stored";

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
  ignored_emails: { table: t.ignoredEmails, key: ["id"], kind: "data" },
  // sender_trust is never restored: trust is earned in this journal, not carried in a file.
  card_names: { table: t.cardNames, key: ["institution", "last_four"], kind: "config" },
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
  blocked_companies: { table: t.blockedCompanies, key: ["key"], kind: "config" },
};

/** Columns a backup writes as JSON values: compared as JSON by sameRow. */
const JSON_COLUMNS = new Set(["CategoryAudit", "ExtractionAudit", "TransactionContext", "data", "detail"]);
export const MAX_BACKUP_BYTES = 50 * 1024 * 1024;

export interface InvalidRow {
  table: string;
  row: Row;
  reason: string;
}
export interface ParsedBackup {
  exportedAt: string | null;
  /** 1: rows only; 2: rows and the files they point to (null for a CSV). */
  formatVersion?: number | null;
  tables: Record<string, Row[]>;
  invalid: InvalidRow[];
  /** What happened to the zip's files (format 2). */
  files?: {
    restored: { attachments: number; statements: number; emails: number };
    refused: { name: string; reason: string }[];
  };
}

/**
 * JSON columns whose reader has no fallback (it refuses a stored value out of shape): a restored
 * value must already have the shape, or the page reading it could not answer. The other JSON
 * columns' readers fall back (an audit, a template's words, a receipt read…) or validate with words
 * (settings, budget documents, the tax mapping); test/unit/domains/data/tables.test.ts keeps this
 * list whole.
 */
export const SHAPED_JSON: Record<string, (value: unknown) => unknown> = {
  "statements.csv_mapping": readCsvState,
  "statement_rows.candidates": readCandidates,
  "statement_csv_mappings.mapping": readCsvMapping,
  "statement_layouts.header": readLayoutHeader,
  "statement_layouts.marks": readLayoutMarks,
};

/** What is wrong with a JSON column's text (not JSON, or out of the column's shape), or null. */
function jsonProblem(column: string, text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "is not JSON";
  }
  try {
    SHAPED_JSON[column]?.(value);
    return null;
  } catch {
    return "is not in its shape";
  }
}

export const isObject = (v: unknown): v is Row => typeof v === "object" && v !== null && !Array.isArray(v);

/** One exported row → the stored row, or the reason it cannot be imported. */
export function toStored(name: string, def: TableDef, raw: unknown, cents: boolean): Row | string {
  if (!isObject(raw)) return "not an object";
  const out: Row = {};
  for (const [prop, col] of Object.entries(getTableColumns(def.table))) {
    let v = raw[col.name];
    // A JSON column holds JSON text: a value is written as its text; a text must be JSON (the
    // restore moves it in as it is, and every read decodes it), in the column's shape where its
    // reader has no fallback. Otherwise it is dropped where the column may be empty (an audit
    // explains a row, the row stays), else it refuses the row.
    if (v !== undefined && v !== null && col.dataType === "json") {
      if (typeof v !== "string") v = JSON.stringify(v);
      const why = jsonProblem(`${name}.${col.name}`, v as string);
      if (why) {
        if (col.notNull) return `${col.name} ${why}`;
        v = null;
      }
    }
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

/**
 * Whether the stored row equals the imported one on the imported row's columns. JSON columns are
 * compared as JSON: the backup holds them as text, drizzle's JSON mode reads them decoded.
 */
export function sameRow(imported: Row, stored: Row): boolean {
  for (const [k, v] of Object.entries(imported)) {
    const w = stored[k];
    if (JSON_COLUMNS.has(k) || (typeof w === "object" && w !== null)) {
      if (canonicalJson(v) !== canonicalJson(w)) return false;
    } else if ((v ?? null) !== (w ?? null)) return false;
  }
  return true;
}

function canonicalJson(value: unknown): string {
  if (typeof value !== "string") return JSON.stringify(value ?? null);
  try {
    return JSON.stringify(JSON.parse(value));
  } catch {
    return value;
  }
}
