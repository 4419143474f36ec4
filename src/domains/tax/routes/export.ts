import { z } from "zod";
import { isDemo } from "../../../env";
import { type AppContext, serviceCtx } from "../../../http/context";
import { ApiError } from "../../../lib/errors";
import { exportName, startTaxExport } from "../export";
import { TaxYearQuery } from "../schemas";
import { TaxRoute, errors } from "./base";

export class ExportTaxPack extends TaxRoute {
  override schema = {
    operationId: "exportTaxPack",
    summary: "Download the year's tax pack as a zip of CSVs plus evidence files",
    description:
      "`summary.csv`, `lines/<key>.csv` per line, receipts under `evidence/<key>/` and the source alert " +
      "as text for email-evidence rows. Streamed (receipts are piped from storage, never buffered whole). " +
      "File names inside the zip are built from the date, an ASCII slug and the attachment id. CSV cells " +
      "that look like formulas are defused. Disabled in demo mode.",
    request: { query: TaxYearQuery },
    responses: {
      "200": { description: "The zip", content: { "application/zip": { schema: z.string() } } },
      ...errors({ "405": "Disabled in demo mode" }),
    },
  };

  override async handle(c: AppContext) {
    if (isDemo(c.env))
      throw new ApiError(405, "The tax pack export is disabled in the demo", "METHOD_NOT_ALLOWED");
    const { query } = await this.getValidatedData<typeof this.schema>();
    const readable = await startTaxExport(serviceCtx(c), query.year);
    return new Response(readable, {
      headers: {
        "content-type": "application/zip",
        "content-disposition": `attachment; filename="${exportName(query.year)}"`,
        "cache-control": "no-store",
      },
    });
  }
}
