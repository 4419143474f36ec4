import { z } from "zod";
import { LIMIT_DEFAULT, LIMIT_MAX } from "./rules";

const Image = z.record(z.string(), z.unknown()).nullable();

export const ActivityEntry = z
  .object({
    id: z.string(),
    ts: z.string(),
    principal_kind: z.string().nullable(),
    principal_id: z.string().nullable(),
    principal_label: z.string().nullable(),
    operation_id: z.string().nullable(),
    method: z.string().nullable(),
    path: z.string().nullable(),
    resource_id: z.string().nullable(),
    summary: z.string().nullable(),
    before: Image.describe("Pre-mutation image: `{}` for a create; null for envelope-only entries"),
    after: Image.describe("The written value: null for a delete and for envelope-only entries"),
    reversible: z.boolean().describe("True only when a before/after image was staged"),
    reverted_at: z.string().nullable(),
    reverted_by: z.string().nullable().describe("The id of the entry that undid this one"),
  })
  .meta({ id: "ActivityEntry", description: "One row of the activity ledger." });
export type ActivityEntry = z.infer<typeof ActivityEntry>;

export const ActivityListResponse = z
  .object({ entries: z.array(ActivityEntry) })
  .meta({ id: "ActivityListResponse", description: "Ledger entries, newest first. No pagination." });

export const ActivityListQuery = z.object({
  limit: z.number().int().min(1).max(LIMIT_MAX).default(LIMIT_DEFAULT),
  since: z
    .string()
    .refine((s) => !Number.isNaN(Date.parse(s)), "must be an ISO 8601 timestamp")
    .nullable()
    .optional()
    .describe("Inclusive ISO-8601 lower bound on entry timestamp"),
  operation: z.string().max(200).nullable().optional().describe("Filter by operation_id (exact match)"),
  principal: z
    .string()
    .max(200)
    .nullable()
    .optional()
    .describe("Filter by principal id (token id), or the literal 'me' for the current caller"),
});

export const RevertQuery = z.object({
  force: z.boolean().default(false).describe("Override the stale-revert guard and apply the revert anyway"),
});

export const RevertResponse = z
  .object({
    reverted_entry_id: z.string(),
    summary: z.string(),
    recreated_categories: z
      .array(z.string())
      .describe("Categories deleted since the entry that force=true recreated (usually empty)"),
  })
  .meta({
    id: "RevertResponse",
    description: "The outcome of a revert; the revert is journaled as its own entry.",
  });
