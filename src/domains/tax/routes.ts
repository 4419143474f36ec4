import { domainRoute, errors, json, route } from "../../http/route";
import { z } from "zod";
import { type AppContext, serviceCtx } from "../../http/context";
import { builtZipRoute, refuseInDemo, runStatusRoute, zipResponse } from "../../http/step-routes";
import { exportName, startTaxExport } from "./export";
import { builtTaxPack, taxBuildStatus } from "./export-steps";
import {
  TaxPackBuildStatus,
  TaxYearQuery,
  TaxLinesResponse,
  TaxPackResponse,
  TaxOverrideRequest,
  TaxTxIdParam,
  TaxMappingDocument,
  TaxMappingResponse,
} from "./schemas";
import { taxLines, getTaxPack, clearOverride, setOverride } from "./service";
import { mappingDoc } from "./mapping";
import { deleteMapping, effectiveMapping, loadMappingInfo, putMapping } from "./mapping-store";

export const TaxRoute = domainRoute("tax");

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

export const GetTaxLines = route(TaxRoute, {
  operationId: "getTaxLines",
  summary: "Selectable claim lines for the include-override picker",
  description: "The mapped lines plus the synthetic `other` line, as `{key, label}`.",
  responses: { "200": json("The lines", TaxLinesResponse) },
  handle: async (ctx) => taxLines(ctx),
});

export const GetTaxPack = route(TaxRoute, {
  operationId: "getTaxPack",
  summary: "Calendar-year tax pack: claim-line totals with per-transaction evidence",
  description:
    "Spending-type rows of the year (by the local-time DateFileName), bucketed by lowercased category " +
    "into the mapped lines; membership = (category-derived ∪ included) − excluded. Excluded derived rows " +
    "are listed under `excluded_transactions` and do not count. Evidence per row: `receipt` (a linked " +
    "receipt-kind attachment) beats `statement` (StatementSource) beats `email` (the source alert). " +
    "`other` (Other claimable) appears only when populated.",
  request: { query: TaxYearQuery },
  responses: { "200": json("The year's lines", TaxPackResponse) },
  handle: async (ctx, { query }) => getTaxPack(ctx, query.year),
});

export const SetTaxOverride = route(TaxRoute, {
  operationId: "setTaxOverride",
  summary: "Force a transaction into a claim line, or exclude it from one",
  description:
    "Upserts the transaction's one override. `include` needs `line_key` (a line key or `other`); an " +
    "include of an unmapped category lands in Other claimable. Spending-type rows only. Journaled and " +
    "reversible. Disabled in demo mode.",
  request: { body: { content: { "application/json": { schema: TaxOverrideRequest } }, required: true } },
  responses: { "204": { description: "Saved" }, ...errors({ "404": "No such transaction" }) },
  handle: async (ctx, { body }, c) => {
    await setOverride(ctx, body);
    return c.body(null, 204);
  },
});

export const ClearTaxOverride = route(TaxRoute, {
  operationId: "clearTaxOverride",
  summary: "Clear a per-transaction tax override",
  description:
    "Removes the manual include or restores the excluded row. Journaled and reversible. Disabled in demo mode.",
  request: { params: TaxTxIdParam },
  responses: {
    "204": { description: "Cleared" },
    ...errors({ "404": "No override for this transaction" }),
  },
  handle: async (ctx, { params }, c) => {
    await clearOverride(ctx, params.tx_id);
    return c.body(null, 204);
  },
});

/** The response: the mapping in effect given its stored document (read, or just written). */
const describeDoc = ({ mapping, personal }: ReturnType<typeof effectiveMapping>) => ({
  personal,
  mapping: mappingDoc(mapping),
});
const describe = async (c: AppContext) => describeDoc(await loadMappingInfo(serviceCtx(c)));

export const GetTaxMapping = route(TaxRoute, {
  operationId: "getTaxMapping",
  summary: "The claim-line mapping in effect (personal, or the packaged one)",
  responses: { "200": json("The mapping", TaxMappingResponse) },
  handle: async (_ctx, _, c) => describe(c),
});

export const PutTaxMapping = route(TaxRoute, {
  operationId: "putTaxMapping",
  summary: "Replace the packaged mapping with a personal one",
  description:
    "Stored in D1 with an R2 JSON backup. 422 names every problem in words (a category claimed by two " +
    "lines, a duplicate or reserved key, an empty label). Journaled and reversible.",
  request: { body: { content: { "application/json": { schema: TaxMappingDocument } }, required: true } },
  responses: { "200": json("The mapping now in effect", TaxMappingResponse) },
  handle: async (ctx, { body }) => {
    const { after } = await putMapping(ctx, body);
    return describeDoc(effectiveMapping(after));
  },
});

export const DeleteTaxMapping = route(TaxRoute, {
  operationId: "deleteTaxMapping",
  summary: "Drop the personal mapping; the packaged one applies again",
  description: "Journaled and reversible.",
  responses: { "200": json("The mapping now in effect", TaxMappingResponse) },
  handle: async (ctx) => {
    await deleteMapping(ctx);
    return describeDoc(effectiveMapping(null));
  },
});
