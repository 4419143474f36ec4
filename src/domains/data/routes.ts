import { domainRoute, json, route, err } from "../../http/route";
import { ObjectBackupStatusResponse } from "../config/checks-schemas";
import { objectBackupStatus } from "../config/checks";
import { z } from "zod";
import { builtZipRoute, refuseInDemo, runStatusRoute, zipResponse } from "../../http/step-routes";
import { builtExport, exportStatus, startExport, fitsOneRequest, writeBackup } from "./export-steps";
import { ZipBuildFields } from "./zip-build";
import { type AppContext, serviceCtx } from "../../http/context";
import { exportFileName } from "./rules";
import { commitImport, previewImport } from "./import";
import { readUpload } from "../../http/upload";
import { BACKUP_LIMITS, backupFilename } from "./import-view";
import {
  BodyPreviewBackupImport,
  ImportCommitRequest,
  ImportPreviewResponse,
  ImportResult,
  RestoreFilesStatus,
} from "./import-schemas";
import { restoreFilesStatus } from "./restore-steps";

const DataRoute = domainRoute("data");

/** GET /api/v1/data/object-backup-status: the daily backup's settings and what the bucket holds. */
export const GetObjectBackupStatus = route(DataRoute, {
  operationId: "getObjectBackupStatus",
  summary: "Daily backup settings and what the bucket holds",
  responses: { "200": json("Status", ObjectBackupStatusResponse) },
  handle: async (ctx) => objectBackupStatus(ctx),
});

export const BackupBuildStatus = ZipBuildFields.extend({
  phase: z.string().nullable().meta({ description: "counting, tables, files or done" }),
  rows_done: z.number().int(),
  rows_total: z.number().int(),
  files_done: z.number().int(),
  files_total: z.number().int(),
}).meta({ id: "BackupBuildStatus" });

/** POST /api/v1/data/export/jobs: builds the backup zip in bounded steps (its first one in this request). */
export const StartBackupBuild = route(domainRoute("data"), {
  operationId: "startBackupBuild",
  summary: "Build the backup zip in steps; the status tells its progress and where it downloads",
  description:
    "The first step runs in this request (a small journal is done when it answers); larger ones go on in " +
    "the background, each step within the Workers per-invocation limits. 409 while a build runs.",
  responses: {
    "200": json("The build (done, or running with its progress)", BackupBuildStatus),
    "409": json("A build is running", BackupBuildStatus),
  },
  handle: async (ctx, _, c) => {
    refuseInDemo(c.env, "Data export");
    const { started, view } = await startExport(ctx.env, ctx.clock);
    return c.json(view, started ? 200 : 409);
  },
});

/** GET /api/v1/data/export/jobs/current: the latest build's progress. */
export const GetBackupBuild = runStatusRoute("data", {
  operationId: "getBackupBuild",
  summary: "The latest backup build: running (rows and files done of their totals), done or error",
  answer: "The build",
  schema: BackupBuildStatus,
  read: (ctx) => exportStatus(ctx.env, ctx.clock),
});

/** GET /api/v1/data/export/jobs/{job_id}/file: the built zip. */
export const DownloadBackupBuild = builtZipRoute("data", {
  operationId: "downloadBackupBuild",
  summary: "Download the zip a finished backup build wrote",
  what: "backup",
  errors: { "404": { description: "No finished build with this id" } },
  demo: "Data export",
  built: builtExport,
});

const DESCRIPTION =
  "One JSON file per table (stored names) and a manifest.json with counts and schema versions. " +
  "Token hashes, the password hash, the session secret and caches are not exported. Disabled in demo mode.";
const RESPONSES = {
  "200": { description: "The backup zip", content: { "application/zip": { schema: z.string() } } },
  "202": json(
    "A journal past 20,000 rows or 200 stored files: the zip is being built in steps (BackupBuildStatus); " +
      "it downloads from download_url once done",
    BackupBuildStatus,
  ),
  "405": { description: "Disabled in demo mode" },
};

/** The backup zip, streamed as it is written (both verbs answer the same). */
abstract class BackupZipRoute extends domainRoute("data") {
  override async handle(c: AppContext) {
    refuseInDemo(c.env, "Data export");
    const ctx = serviceCtx(c);
    // Beyond what one invocation holds, the zip is built in steps: 202 with the build's status.
    if (!(await fitsOneRequest(ctx.env.DB))) {
      const { view } = await startExport(ctx.env, ctx.clock);
      return c.json(view, 202, { location: "/api/v1/data/export/jobs/current" });
    }
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    ctx.waitUntil(writeBackup(ctx, writable));
    return zipResponse(readable, exportFileName(ctx.clock().toISOString()));
  }
}

/** GET: a plain link downloads it (the dashboard's Backup page). */
export class DownloadFullBackup extends BackupZipRoute {
  override schema = {
    operationId: "downloadFullBackup",
    summary: "Stream a full-data backup zip (transactions, quarantine, configuration; never secrets)",
    description: DESCRIPTION,
    responses: RESPONSES,
  };
}

/** POST: the reference's verb for the same export (a read: not journaled). */
export class ExportFullBackup extends BackupZipRoute {
  override schema = {
    operationId: "exportFullBackup",
    summary: "Stream a full-data backup zip (transactions + config); the same as GET",
    description: `${DESCRIPTION} No request body.`,
    responses: RESPONSES,
  };
}

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
