import { z } from "zod";
import { isDemo } from "../../../env";
import { type AppContext, serviceCtx } from "../../../http/context";
import { ApiError, notFound } from "../../../lib/errors";
import { exportName, startTaxExport } from "../export";
import { builtTaxPack, taxBuildStatus } from "../export-steps";
import { TaxPackBuildStatus, TaxYearQuery } from "../schemas";
import { TaxRoute, errors, json } from "./base";

const demoRefused = (c: AppContext) => {
  if (isDemo(c.env))
    throw new ApiError(405, "The tax pack export is disabled in the demo", "METHOD_NOT_ALLOWED");
};

const zipResponse = (body: ReadableStream, year: number, size?: number) =>
  new Response(body, {
    headers: {
      "content-type": "application/zip",
      ...(size === undefined ? {} : { "content-length": String(size) }),
      "content-disposition": `attachment; filename="${exportName(year)}"`,
      "cache-control": "no-store",
    },
  });

export class ExportTaxPack extends TaxRoute {
  override schema = {
    operationId: "exportTaxPack",
    summary: "Download the year's tax pack as a zip of CSVs plus evidence files",
    description:
      "`summary.csv`, `lines/<key>.csv` per line, receipts under `evidence/<key>/` and the source alert " +
      "as text for email-evidence rows. Streamed (receipts are piped from storage, never buffered whole). " +
      "File names inside the zip are built from the date, an ASCII slug and the attachment id. CSV cells " +
      "that look like formulas are defused. A year past 200 evidence files is built in steps instead: 202 " +
      "with the build's status (its download_url once done; 409 while another year's build runs). " +
      "Disabled in demo mode.",
    request: { query: TaxYearQuery },
    responses: {
      "200": { description: "The zip", content: { "application/zip": { schema: z.string() } } },
      "202": json("The zip is being built in steps (GET /tax-pack/export/jobs/current)", TaxPackBuildStatus),
      "409": json("Another year's pack is being built", TaxPackBuildStatus),
      ...errors({ "405": "Disabled in demo mode" }),
    },
  };

  override async handle(c: AppContext) {
    demoRefused(c);
    const { query } = await this.getValidatedData<typeof this.schema>();
    const out = await startTaxExport(serviceCtx(c), query.year);
    if ("streamed" in out) return zipResponse(out.streamed, query.year);
    // A build of this year already running answers as a fresh start does.
    const status = out.started || out.build.year === query.year ? 202 : 409;
    return c.json(out.build, status, { location: "/api/v1/tax-pack/export/jobs/current" });
  }
}

/** GET /api/v1/tax-pack/export/jobs/current: the latest stepped build's progress. */
export class GetTaxPackBuild extends TaxRoute {
  override schema = {
    operationId: "getTaxPackBuild",
    summary: "The latest tax pack build: running (files done of their total), done or error",
    responses: { "200": json("The build", TaxPackBuildStatus) },
  };
  override async handle(c: AppContext) {
    const ctx = serviceCtx(c);
    return c.json(await taxBuildStatus(ctx.env, ctx.clock));
  }
}

/** GET /api/v1/tax-pack/export/jobs/{job_id}/file: the built zip. */
export class DownloadTaxPackBuild extends TaxRoute {
  override schema = {
    operationId: "downloadTaxPackBuild",
    summary: "Download the zip a finished tax pack build wrote",
    request: { params: z.object({ job_id: z.string().min(1).max(64) }) },
    responses: {
      "200": { description: "The tax pack zip", content: { "application/zip": { schema: z.string() } } },
      ...errors({ "404": "No finished build with this id", "405": "Disabled in demo mode" }),
    },
  };
  override async handle(c: AppContext) {
    demoRefused(c);
    const { params } = await this.getValidatedData<typeof this.schema>();
    const built = await builtTaxPack(serviceCtx(c).env, params.job_id);
    if (!built) throw notFound("Finished tax pack build");
    return zipResponse(built.obj.body, built.year, built.obj.size);
  }
}
