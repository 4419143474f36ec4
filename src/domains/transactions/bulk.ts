/** Bulk category update: every row validated and written in one D1 batch; per-row results. */
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import { getDb } from "../../db";
import { clearAttentionRow } from "./attention-queries";
import type { ServiceCtx } from "../../lib/context";
import type { EditableImage } from "./rules";
import { encodeTxId } from "../../lib/txid";
import { batchOf } from "../../db/lists";
import { loadCategories } from "../../categorize/categories";
import { requireLiveCategories } from "../categories/service";
import { currentImage, restoreImage } from "./service";
import { rowByKeyQuery, setCategoryIfListedQuery } from "./queries";
import { canonicalCategory, correctedAudit, editableImage, type TxRow } from "./rules";
import type { BulkCategoryUpdateItem } from "./schemas";

type BulkItem = z.infer<typeof BulkCategoryUpdateItem>;

export async function bulkUpdateCategory(
  ctx: ServiceCtx,
  { updates, source }: { updates: BulkItem[]; source: string },
) {
  const db = getDb(ctx.env.DB);
  const now = ctx.clock().toISOString();
  const keyOf = (u: BulkItem) => ({ forwardedTo: u.forwarded_to, dateFileName: u.date_file_name });
  const list = await loadCategories(db);
  const reads = updates.map((u) => rowByKeyQuery(db, keyOf(u)));
  const found = (reads.length ? await db.batch(batchOf(reads)) : []) as TxRow[][];
  const writes: BatchItem<"sqlite">[] = [];
  /** Position in `writes` of each result's guarded UPDATE. */
  const updateAt = new Map<number, number>();
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const results = updates.map((u, i) => {
    const txId = encodeTxId(u.forwarded_to, u.date_file_name);
    const base = {
      tx_id: txId,
      forwarded_to: u.forwarded_to,
      date_file_name: u.date_file_name,
      new_category: u.category,
    };
    const row = found[i]?.[0];
    if (!row) return { ...base, ok: false, old_category: null, error: "transaction not found" };
    const category = canonicalCategory(u.category, list);
    if (!category)
      return { ...base, ok: false, old_category: row.Category, error: `unknown category "${u.category}"` };
    const audit = correctedAudit(row.CategoryAudit, row.Category, source, now);
    before[txId] = editableImage(row);
    after[txId] = editableImage({ ...row, Category: category, CategoryAudit: audit });
    updateAt.set(i, writes.length);
    // Guarded like the single edit: a rename or delete landing meanwhile makes the write a no-op.
    writes.push(setCategoryIfListedQuery(db, keyOf(u), category, audit), clearAttentionRow(db, keyOf(u)));
    return { ...base, new_category: category, ok: true, old_category: row.Category, error: null };
  });
  const succeeded = results.filter((r) => r.ok).length;
  const response = { total: results.length, succeeded, failed: results.length - succeeded, results };
  // The entry rides in the writes' batch, its images as planned. A row whose guard finds its
  // category renamed or deleted meanwhile (a race) stays in the images: its undo then asks for force.
  ctx.journal({
    kind: "transactions-bulk",
    resourceId: succeeded <= 200 ? JSON.stringify(Object.keys(before)) : "bulk",
    before: { rows: before },
    after: { rows: after },
    rows: succeeded,
    summary: `${succeeded} of ${results.length} transactions recategorized`,
  });
  const [w, ...ws] = writes;
  const outcome = w ? ((await ctx.batch([w, ...ws])) as { meta?: { changes?: number } }[]) : [];
  for (const [i, at] of updateAt) {
    if ((outcome[at]?.meta?.changes ?? 0) > 0) continue;
    const r = results[i]!;
    results[i] = { ...r, ok: false, error: `category "${r.new_category}" was renamed or deleted meanwhile` };
  }
  const ok = results.filter((r) => r.ok).length;
  return { response: { ...response, succeeded: ok, failed: results.length - ok } };
}

/** Ledger support for bulk entries: images are `{rows: {tx_id: image}}`. */
export async function currentBulkImage(ctx: ServiceCtx, txIds: readonly string[]) {
  const rows: Record<string, unknown> = {};
  for (const txId of txIds) rows[txId] = await currentImage(ctx, txId);
  return { rows };
}

export async function restoreBulkImage(
  ctx: ServiceCtx,
  {
    image,
    opts = { force: false },
  }: {
    image: { rows: Record<string, EditableImage> };
    opts?: { force: boolean; journal?: (recreated?: string[]) => void };
  },
) {
  const { rows } = image;
  // Every category the images name is checked (and, forced, recreated) before any row is written.
  const names = Object.values(rows).map((img) => img.Category ?? "");
  const recreated = await requireLiveCategories(ctx, { names, force: opts.force });
  // A revert's own entry rides in the first row's batch.
  opts.journal?.(recreated);
  for (const [txId, img] of Object.entries(rows)) await restoreImage(ctx, { txId, image: img, opts });
  return { recreated_categories: recreated };
}
