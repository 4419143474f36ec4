/** Backup import shapes, named like the reference's components (previewBackupImport / commitBackupImport). */
import { z } from "zod";

export const BodyPreviewBackupImport = z
  .object({ file: z.string().meta({ format: "binary", contentMediaType: "application/zip" }) })
  .meta({
    id: "Body_previewBackupImport",
    description: "A backup zip from GET /api/v1/data/export, or a CSV from GET /api/v1/transactions/export.",
  });

export const ImportPreviewSample = z
  .object({
    date: z.string().nullable().optional(),
    company: z.string().nullable().optional(),
    amount: z.number().nullable().optional(),
    category: z.string().nullable().optional(),
    reason: z.string().nullable().optional(),
  })
  .meta({
    id: "ImportPreviewSample",
    description: "One transaction row from a preview bucket, trimmed for display.",
  });

export const ImportPreviewCounts = z
  .object({
    total: z.number().int(),
    new: z.number().int(),
    duplicates: z.number().int(),
    invalid: z.number().int(),
  })
  .meta({ id: "ImportPreviewCounts" });

export const ImportTableCounts = z
  .object({
    total: z.number().int(),
    new: z.number().int(),
    identical: z.number().int(),
    different: z.number().int(),
    invalid: z.number().int(),
  })
  .meta({
    id: "ImportTableCounts",
    description: "Per table: rows absent here, equal to the stored row, or differing.",
  });

export const ConfigReplaced = z
  .object({
    table: z.string(),
    backup_rows: z.number().int().describe("Rows the backup holds for this table"),
    current_rows: z.number().int().describe("Rows the journal holds now (replaced when apply_config is set)"),
  })
  .meta({ id: "ConfigReplaced" });

export const ConfigPreview = z
  .object({
    budget_years_count: z.number().int().nullable().optional(),
    categories_count: z.number().int().nullable().optional(),
    merchant_aliases_count: z.number().int().nullable().optional(),
    overrides_count: z.number().int().nullable().optional(),
    replaced: z
      .array(ConfigReplaced)
      .optional()
      .describe(
        "Only with apply_config: each configuration table the restore replaces, backup rows vs. current rows",
      ),
    problems: z
      .array(z.string())
      .optional()
      .describe(
        "Why the backup's settings cannot be restored (apply_config is then refused with these words)",
      ),
  })
  .meta({ id: "ConfigPreview", description: "Summary of the configuration lists that would be replaced." });

export const BackupFilesPreview = z
  .object({
    attachments: z
      .number()
      .int()
      .describe("Receipt and document files restored (checked against their sha256)"),
    statements: z.number().int().describe("Statement files restored"),
    emails: z.number().int().describe("Raw emails restored"),
    refused: z
      .array(z.object({ name: z.string(), reason: z.string() }))
      .describe("Files not restored, with the reason (their rows are not restored either)"),
  })
  .meta({
    id: "BackupFilesPreview",
    description: "The files in the backup that a restore puts back in storage.",
  });

export const RestoreFilesStatus = z
  .object({
    status: z.enum(["idle", "running", "done", "error"]),
    task_id: z.string().nullable(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    files_done: z.number().int().describe("Files written to storage so far"),
    files_total: z.number().int().describe("Files the restore writes"),
    error: z.string().nullable(),
  })
  .meta({
    id: "RestoreFilesStatus",
    description: "The latest restore's files written in bounded steps (a backup with many stored files).",
  });

export const ImportPreviewResponse = z
  .object({
    token: z.string().describe("Staged-import token. Commit within 15 minutes."),
    filename: z.string(),
    source_kind: z.string(),
    expires_at: z.string(),
    counts: ImportPreviewCounts,
    tables: z.record(z.string(), ImportTableCounts),
    sample_new: z.array(ImportPreviewSample),
    sample_duplicates: z.array(ImportPreviewSample),
    sample_invalid: z.array(ImportPreviewSample),
    config: ConfigPreview.nullable(),
    format_version: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe("1: rows only (made before files were backed up); 2: rows and files; null for a CSV"),
    files: BackupFilesPreview.nullable().optional(),
  })
  .meta({ id: "ImportPreviewResponse", description: "Dry run of an import; commit it with `token`." });

export const ImportStrategy = z.enum(["skip", "overwrite", "keep_both"]);
export type ImportStrategy = z.infer<typeof ImportStrategy>;

export const ImportCommitRequest = z
  .object({
    token: z.string().min(1).max(100),
    strategy: ImportStrategy.default("skip"),
    apply_config: z
      .boolean()
      .default(false)
      .describe("Also replace categories, rules, budgets and settings with the backup's (off unless asked)"),
  })
  .strict()
  .meta({ id: "ImportCommitRequest" });

export const ImportTableResult = ImportTableCounts.extend({
  inserted: z
    .number()
    .int()
    .describe("Rows added (a `new` row; with keep_both, a copy of a `different` one)"),
  updated: z.number().int().describe("Rows replaced (overwrite: the `different` ones)"),
  skipped: z.number().int().describe("Rows left as they were"),
}).meta({
  id: "ImportTableResult",
  description:
    "Per table: the preview's counts, read again at commit, and what the restore did with the rows.",
});

export const ImportResult = z
  .object({
    inserted: z
      .number()
      .int()
      .describe(
        "Transactions added: the preview's `counts.new`, plus copies of differing rows with keep_both",
      ),
    updated: z.number().int().describe("Transactions replaced (overwrite)"),
    skipped: z.number().int().describe("Transactions left as they were"),
    invalid: z
      .number()
      .int()
      .describe("Unreadable transaction rows, skipped (the preview's `counts.invalid`)"),
    errors: z.number().int(),
    counts: ImportPreviewCounts.describe(
      "The preview's transaction counts, read from the same backup at commit",
    ),
    tables: z
      .record(z.string(), ImportTableResult)
      .describe("Every data table: the preview's `tables` counts and the rows added, replaced, left"),
    config_applied: z.boolean(),
    config_details: z.record(z.string(), z.number().int()),
    files: BackupFilesPreview.nullable().optional(),
    files_later: RestoreFilesStatus.nullable()
      .optional()
      .describe(
        "Set when the backup holds more files than one request writes: the rows are restored, the rest of " +
          "the files are being written in the background (GET /data/import/files/current tells their progress)",
      ),
  })
  .meta({
    id: "ImportResult",
    description:
      "Transactions added, replaced, left (the same counts as the preview's); every table's in `tables`; config rows restored.",
  });
export type ImportResult = z.infer<typeof ImportResult>;
