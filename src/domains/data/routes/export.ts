import { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute, json } from "../../../http/route";
import { refuseInDemo, zipResponse } from "../../../http/step-routes";
import { exportFileName } from "../rules";
import { BackupBuildStatus } from "./export-jobs";
import { fitsOneRequest, startExport, writeBackup } from "../export-steps";

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
