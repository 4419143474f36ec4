/** The upload's reading and the preview's shapes (pure but for reading the request). */
import { fromCents, asCents } from "../../lib/money";
import { MAX_BACKUP_BYTES, type ParsedBackup, type Row } from "./import-rules";
import type { TableDiff } from "./import-store";

/** What src/http's readUpload hands over for a backup: 50 MB. */
export const BACKUP_LIMITS = { maxBytes: MAX_BACKUP_BYTES, tooLarge: "The backup is larger than 50 MB" };

/** The backup's display name, safe for a header or metadata. */
export const backupFilename = (name: string) =>
  (name || "backup.zip").replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 100);

export const sample = (row: Row, reason?: string) => ({
  date: (row.Date as string | null) ?? null,
  company: (row.Company as string | null) ?? null,
  amount: typeof row.Amount === "number" ? fromCents(asCents(row.Amount)) : null,
  category: (row.Category as string | null) ?? null,
  ...(reason ? { reason } : {}),
});

export function summarize(diffs: TableDiff[], invalid: { table: string; row: Row; reason: string }[]) {
  const tables: Record<
    string,
    { total: number; new: number; identical: number; different: number; invalid: number }
  > = {};
  for (const d of diffs) {
    const n = (v: string) => d.rows.filter((r) => r.verdict === v).length;
    const bad = invalid.filter((i) => i.table === d.name).length;
    tables[d.name] = {
      total: d.rows.length + bad,
      new: n("new"),
      identical: n("identical"),
      different: n("different"),
      invalid: bad,
    };
  }
  return tables;
}

/** What the zip's files came to (null for a CSV). */
export const filesView = (backup: ParsedBackup) =>
  backup.files
    ? {
        attachments: backup.files.restored.attachments,
        statements: backup.files.restored.statements,
        emails: backup.files.restored.emails,
        refused: backup.files.refused.slice(0, 20),
      }
    : null;
