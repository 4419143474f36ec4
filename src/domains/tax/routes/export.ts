import { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { errors, json } from "../../../http/route";
import { builtZipRoute, refuseInDemo, runStatusRoute, zipResponse } from "../../../http/step-routes";
import { exportName, startTaxExport } from "../export";
import { builtTaxPack, taxBuildStatus } from "../export-steps";
import { TaxPackBuildStatus, TaxYearQuery } from "../schemas";
import { TaxRoute } from "./base";

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
    refuseInDemo(c.env, "The tax pack export");
    const { query } = await this.getValidatedData<typeof this.schema>();
    const out = await startTaxExport(serviceCtx(c), query.year);
    if ("streamed" in out) return zipResponse(out.streamed, exportName(query.year));
    // A build of this year already running answers as a fresh start does.
    const status = out.started || out.build.year === query.year ? 202 : 409;
    return c.json(out.build, status, { location: "/api/v1/tax-pack/export/jobs/current" });
  }
}

/** GET /api/v1/tax-pack/export/jobs/current: the latest stepped build's progress. */
export const GetTaxPackBuild = runStatusRoute("tax", {
  operationId: "getTaxPackBuild",
  summary: "The latest tax pack build: running (files done of their total), done or error",
  answer: "The build",
  schema: TaxPackBuildStatus,
  read: (ctx) => taxBuildStatus(ctx.env, ctx.clock),
});

/** GET /api/v1/tax-pack/export/jobs/{job_id}/file: the built zip. */
export const DownloadTaxPackBuild = builtZipRoute("tax", {
  operationId: "downloadTaxPackBuild",
  summary: "Download the zip a finished tax pack build wrote",
  what: "tax pack",
  errors: errors({ "404": "No finished build with this id", "405": "Disabled in demo mode" }),
  demo: "The tax pack export",
  built: builtTaxPack,
});
