/** The upload's reading and the preview's shapes (pure but for reading the request). */
import { ApiError, validationError } from "../../lib/errors";
import { fromCents } from "../../lib/money";
import { MAX_BACKUP_BYTES, type ParsedBackup, type Row } from "./import-rules";
import type { TableDiff } from "./import-store";

const fileIssue = (msg: string, type = "value_error") =>
  validationError([{ loc: ["body", "file"], msg, type }], msg);

/** The uploaded backup's bytes and a display name safe for a header or metadata. */
export async function readBackupUpload(request: Request): Promise<{ bytes: Uint8Array; filename: string }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BACKUP_BYTES + 64 * 1024) throw new ApiError(413, "The backup is larger than 50 MB");
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw fileIssue("Expected multipart/form-data with a `file` field", "missing");
  }
  const file = form.get("file");
  if (file === null) throw fileIssue("Field required", "missing");
  if (typeof file === "string") throw fileIssue("`file` must be a file upload, not a text field");
  if (file.size > MAX_BACKUP_BYTES) throw new ApiError(413, "The backup is larger than 50 MB");
  if (file.size === 0) throw fileIssue("The file is empty");
  const filename = (file.name || "backup.zip").replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 100);
  return { bytes: new Uint8Array(await file.arrayBuffer()), filename };
}

export const sample = (row: Row, reason?: string) => ({
  date: (row.Date as string | null) ?? null,
  company: (row.Company as string | null) ?? null,
  amount: typeof row.Amount === "number" ? fromCents(row.Amount) : null,
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
