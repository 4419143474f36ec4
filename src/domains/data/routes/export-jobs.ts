import { z } from "zod";
import { isDemo } from "../../../env";
import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { ApiError, notFound } from "../../../lib/errors";
import { builtExport, exportStatus, startExport } from "../export-steps";
import { exportFileName } from "../rules";
import { ZipBuildFields } from "../zip-build";

export const BackupBuildStatus = ZipBuildFields.extend({
  phase: z.string().nullable().meta({ description: "counting, tables, files or done" }),
  rows_done: z.number().int(),
  rows_total: z.number().int(),
  files_done: z.number().int(),
  files_total: z.number().int(),
}).meta({ id: "BackupBuildStatus" });

const DataRoute = domainRoute("data");
const json = (description: string) => ({
  description,
  content: { "application/json": { schema: BackupBuildStatus } },
});
const demoRefused = (c: AppContext) => {
  if (isDemo(c.env)) throw new ApiError(405, "Data export is disabled in the demo", "METHOD_NOT_ALLOWED");
};

/** POST /api/v1/data/export/jobs: builds the backup zip in bounded steps (its first one in this request). */
export class StartBackupBuild extends DataRoute {
  override schema = {
    operationId: "startBackupBuild",
    summary: "Build the backup zip in steps; the status tells its progress and where it downloads",
    description:
      "The first step runs in this request (a small journal is done when it answers); larger ones go on in " +
      "the background, each step within the Workers per-invocation limits. 409 while a build runs.",
    responses: {
      "200": json("The build (done, or running with its progress)"),
      "409": json("A build is running"),
    },
  };
  override async handle(c: AppContext) {
    demoRefused(c);
    const ctx = serviceCtx(c);
    const { started, view } = await startExport(ctx.env, ctx.clock);
    return c.json(view, started ? 200 : 409);
  }
}

/** GET /api/v1/data/export/jobs/current: the latest build's progress. */
export class GetBackupBuild extends DataRoute {
  override schema = {
    operationId: "getBackupBuild",
    summary: "The latest backup build: running (rows and files done of their totals), done or error",
    responses: { "200": json("The build") },
  };
  override async handle(c: AppContext) {
    const ctx = serviceCtx(c);
    return c.json(await exportStatus(ctx.env, ctx.clock));
  }
}

/** GET /api/v1/data/export/jobs/{job_id}/file: the built zip. */
export class DownloadBackupBuild extends DataRoute {
  override schema = {
    operationId: "downloadBackupBuild",
    summary: "Download the zip a finished backup build wrote",
    request: { params: z.object({ job_id: z.string().min(1).max(64) }) },
    responses: {
      "200": { description: "The backup zip", content: { "application/zip": { schema: z.string() } } },
      "404": { description: "No finished build with this id" },
    },
  };
  override async handle(c: AppContext) {
    demoRefused(c);
    const { params } = await this.getValidatedData<typeof this.schema>();
    const built = await builtExport(serviceCtx(c).env, params.job_id);
    if (!built) throw notFound("Finished backup build");
    return new Response(built.obj.body, {
      headers: {
        "content-type": "application/zip",
        "content-length": String(built.obj.size),
        "content-disposition": `attachment; filename="${exportFileName(built.started_at)}"`,
        "cache-control": "no-store",
      },
    });
  }
}
