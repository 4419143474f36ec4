/**
 * The shapes of this domain's ledger images (activity_log before/after of `statement-review` and
 * `statement-import` entries): the activity revert reads an entry's before image through them
 * (src/domains/activity/images.ts), so a restore gets typed fields, never a cast.
 */
import { z } from "zod";

const rowChoice = z.object({
  action: z.string(),
  edited: z.number().int(),
  edited_company: z.string().nullable(),
  edited_category: z.string().nullable(),
});
/** A review edit's image: the statement's status and each row's choices. */
export const ReviewImageShape = z.object({
  status: z.string(),
  completed_at: z.string().nullable(),
  rows: z.record(z.string(), rowChoice),
});
export type ReviewImage = z.infer<typeof ReviewImageShape>;

/**
 * A transaction an import touched, as the image holds it. `Amount` is cents in entries written
 * since amounts moved to cents and a decimal before; the restore never writes it back (it puts
 * back company, category, audit and source), so either reads. `CategoryAudit` is the stored map,
 * or its JSON text in older entries: the restore reads it with readCategoryAudit.
 */
const txImage = z.object({
  Amount: z.number().nullable(),
  Company: z.string().nullable(),
  Category: z.string().nullable(),
  CategoryAudit: z.unknown(),
  StatementSource: z.string().nullable(),
});

/** An import's image: the statement's status, its rows' results, the transactions it touched. */
export const ImportImageShape = z.object({
  status: z.string(),
  completed_at: z.string().nullable(),
  rows: z.record(
    z.string(),
    z.object({ action: z.string(), action_result: z.string().nullable(), acted_at: z.string().nullable() }),
  ),
  /** `ForwardedTo\nDateFileName` → the row's fields (null: the row did not exist). */
  transactions: z.record(z.string(), txImage.nullable()),
});
export type StoredImportImage = z.infer<typeof ImportImageShape>;
