import { z } from "zod";
import { domainRoute, json, route } from "../../../http/route";
import { builtZipRoute, refuseInDemo, runStatusRoute } from "../../../http/step-routes";
import { builtExport, exportStatus, startExport } from "../export-steps";
import { ZipBuildFields } from "../zip-build";

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
