import { z } from "zod";
import { ZipBuildFields } from "../data/zip-build";

export const TaxYearQuery = z.object({
  year: z.coerce.number().int().min(2020).max(2099).describe("Calendar year"),
});

export const TaxEvidenceCounts = z
  .object({ receipt: z.number().int(), statement: z.number().int(), email: z.number().int() })
  .meta({
    id: "TaxEvidenceCounts",
    description: "How many of a line's transactions carry each kind of evidence (the strongest per row).",
  });

export const TaxPackTransaction = z
  .object({
    tx_id: z.string(),
    date: z.string().describe("Transaction date, YYYY-MM-DD."),
    company: z.string(),
    amount: z.number(),
    category: z.string(),
    evidence: z.string().describe("`receipt`, `statement`, `email` (strongest first) or `none`"),
    forwarded_to: z.string(),
    date_file_name: z.string(),
    manual: z.boolean().default(false).describe("true when an override put it here (or excluded it)"),
  })
  .meta({ id: "TaxPackTransaction", description: "One claimable transaction inside a tax line." });

export const TaxLineResponse = z
  .object({
    key: z.string(),
    label: z.string(),
    categories: z.array(z.string()),
    cra_ref: z
      .string()
      .nullable()
      .optional()
      .describe("Country-specific reference; not shown by the dashboard or the CSV."),
    note: z.string().nullable().optional().describe("Optional one-sentence informational note."),
    total: z.number(),
    transaction_count: z.number().int(),
    evidence_counts: TaxEvidenceCounts,
    transactions: z.array(TaxPackTransaction),
    excluded_transactions: z.array(TaxPackTransaction).default([]),
  })
  .meta({ id: "TaxLineResponse", description: "One claim line with its matched transactions for the year." });

export const TaxPackResponse = z
  .object({ year: z.number().int(), grand_total: z.number(), lines: z.array(TaxLineResponse) })
  .meta({
    id: "TaxPackResponse",
    description: "The calendar-year tax pack: every mapped line plus a grand total.",
  });

export const TaxLineOption = z
  .object({ key: z.string(), label: z.string() })
  .meta({ id: "TaxLineOption", description: "A selectable claim line (for the include-override picker)." });

export const TaxLinesResponse = z.object({ lines: z.array(TaxLineOption) }).meta({
  id: "TaxLinesResponse",
  description: "The selectable claim lines: the mapped lines plus the synthetic other line.",
});

export const TaxOverrideRequest = z
  .object({
    tx_id: z.string().min(1).max(2000),
    mode: z.enum(["include", "exclude"]),
    line_key: z
      .string()
      .max(40)
      .nullable()
      .optional()
      .describe("Target line key (or `other`); required when mode is include."),
  })
  .meta({
    id: "TaxOverrideRequest",
    description: "Force a transaction into a line (`include`) or drop it out (`exclude`).",
  });

export const TaxTxIdParam = z.object({ tx_id: z.string().min(1).max(2000) });

const MappingLine = z.object({
  key: z.string(),
  label: z.string(),
  cra_ref: z.string().nullable().optional(),
  note: z.string().nullable().optional(),
  categories: z.array(z.string()),
});

export const TaxMappingDocument = z
  .object({ version: z.number().int().optional(), lines: z.array(MappingLine).max(50) })
  .meta({ id: "TaxMappingDocument", description: "A claim-line mapping (same shape as the packaged one)." });

export const TaxMappingResponse = z
  .object({
    personal: z.boolean().describe("false: the packaged mapping applies"),
    mapping: TaxMappingDocument,
  })
  .meta({ id: "TaxMappingResponse" });

export type TaxPackResponse = z.infer<typeof TaxPackResponse>;
export type TaxPackTransaction = z.infer<typeof TaxPackTransaction>;

export const TaxPackBuildStatus = ZipBuildFields.extend({
  phase: z.string().nullable().meta({ description: "counting, files or done" }),
  year: z.number().int().nullable(),
  files_done: z.number().int().meta({ description: "Evidence files read so far (found or not)" }),
  files_total: z.number().int(),
  missing: z.number().int().meta({ description: "Evidence files no longer stored (left out)" }),
}).meta({
  id: "TaxPackBuildStatus",
  description: "A tax pack zip built in steps (a year past 200 evidence files): its progress and download.",
});
