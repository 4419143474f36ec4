import { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { ApiError } from "../../../lib/errors";
import { domainRoute } from "../../../http/route";
import { isDemo } from "../../../env";
import { exportFileName } from "../rules";
import { writeBackup } from "../service";

export class ExportFullBackup extends domainRoute("data") {
  override schema = {
    operationId: "exportFullBackup",
    summary: "Stream a full-data backup zip (transactions, quarantine, configuration; never secrets)",
    description:
      "One JSON file per table (stored names) and a manifest.json with counts and schema versions. " +
      "Token hashes, the password hash, the session secret and caches are not exported. Disabled in demo mode.",
    responses: {
      "200": { description: "The backup zip", content: { "application/zip": { schema: z.string() } } },
      "405": { description: "Disabled in demo mode" },
    },
  };

  override async handle(c: AppContext) {
    if (isDemo(c.env)) throw new ApiError(405, "Data export is disabled in the demo", "METHOD_NOT_ALLOWED");
    const ctx = serviceCtx(c);
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    ctx.waitUntil(writeBackup(ctx, writable));
    return new Response(readable, {
      headers: {
        "content-type": "application/zip",
        "content-disposition": `attachment; filename="${exportFileName(ctx.clock().toISOString())}"`,
        "cache-control": "no-store",
      },
    });
  }
}
