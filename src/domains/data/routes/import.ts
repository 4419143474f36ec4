import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute, err, json, route } from "../../../http/route";
import { runStatusRoute } from "../../../http/step-routes";
import { commitImport, previewImport } from "../import";
import { readUpload } from "../../../http/upload";
import { BACKUP_LIMITS, backupFilename } from "../import-view";
import {
  BodyPreviewBackupImport,
  ImportCommitRequest,
  ImportPreviewResponse,
  ImportResult,
  RestoreFilesStatus,
} from "../import-schemas";
import { restoreFilesStatus } from "../restore-steps";

const DataRoute = domainRoute("data");

export class PreviewBackupImport extends DataRoute {
  override schema = {
    operationId: "previewBackupImport",
    summary:
      "Stage a backup zip (or a search CSV) and return a dry run: rows new, identical or different per table",
    description:
      "Nothing is written to the journal. The zip is staged under a random token for 15 minutes. " +
      "Only the manifest, known tables and the files their rows point to are inflated, each under a cap. " +
      "Files are checked against their rows (sha256, sniffed type, pixel count); storage keys and types " +
      "are derived by the server, never taken from the zip. Secrets tables are never imported. Disabled in demo mode.",
    request: {
      body: { content: { "multipart/form-data": { schema: BodyPreviewBackupImport } }, required: true },
    },
    responses: {
      "200": json("The dry run", ImportPreviewResponse),
      "413": err("File larger than 50 MB, or a zip that inflates far beyond its size (a decompression bomb)"),
    },
  };
  override async handle(c: AppContext) {
    const file = await readUpload(c.req.raw, BACKUP_LIMITS);
    const upload = { bytes: file.bytes, filename: backupFilename(file.name) };
    return c.json(await previewImport(serviceCtx(c), upload));
  }
}

export const CommitBackupImport = route(DataRoute, {
  operationId: "commitBackupImport",
  summary:
    "Apply a previewed backup all-or-nothing (skip, overwrite or keep_both existing rows; settings only with apply_config)",
  description:
    "Files are written to storage first under server-derived keys, then every row moves into the journal " +
    "in one atomic batch. A backup with more files than one request writes (200) has the rest written " +
    "after the rows, in bounded background steps: `files_later` says so, GET /data/import/files/current " +
    "tells their progress. 409 when a configuration list that apply_config would replace changed after " +
    "the preview; 422 when apply_config is set and the backup's settings hold an invalid field.",
  request: { body: { content: { "application/json": { schema: ImportCommitRequest } }, required: true } },
  responses: {
    "200": json("What was written", ImportResult),
    "404": err("No staged import with this token"),
    "409": err(
      "A configuration list changed after the preview, or the previous restore's files are still being written: nothing was restored",
    ),
    "410": err("The preview is older than 15 minutes"),
  },
  handle: async (ctx, { body }) => commitImport(ctx, body),
});

/** GET /api/v1/data/import/files/current: the latest restore's files written in steps. */
export const GetRestoreFiles = runStatusRoute("data", {
  operationId: "getRestoreFiles",
  summary: "The latest restore's files still being written (a backup with many files): done of total",
  answer: "The run (idle when no restore needed steps)",
  schema: RestoreFilesStatus,
  read: (ctx) => restoreFilesStatus(ctx.env, ctx.clock),
});
