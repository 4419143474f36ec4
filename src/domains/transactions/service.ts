/** Transaction reads and the editing loop. Each edit returns before/after images for the ledger. */
import type { z } from "zod";
import type { ServiceCtx } from "../../lib/context";
import { getDb } from "../../db";
import { learnForwarder } from "../../ingest/checks";
import { conflict, notFound, validationError } from "../../lib/errors";
import { fromCentsOrNull, toCents } from "../../lib/money";
import { monthBounds, monthOfDateFileName } from "../../lib/month";
import { decodeTxId, encodeTxId, type TxKey } from "../../lib/txid";
import { loadCategories } from "../../categorize/categories";
import { categoryGone, requireLiveCategories } from "../categories/service";
import { deleteRowStatements, getRow, latestCreated, listMonths, writeEditable } from "./queries";
import {
  canonicalCategory,
  correctedAudit,
  type Editable,
  type EditableImage,
  editableImage,
  imageColumns,
  type ListedRow,
  reviewedAudit,
  toResponse,
  type TxRow,
} from "./rules";
import type { CategoryUpdateRequest, TransactionFieldsUpdateRequest } from "./schemas";

export function keyOf(txId: string): TxKey {
  const key = decodeTxId(txId);
  if (!key) throw notFound("Transaction");
  return key;
}

async function loadRow(ctx: ServiceCtx, txId: string): Promise<{ key: TxKey; row: TxRow }> {
  const key = keyOf(txId);
  const row = await getRow(getDb(ctx.env.DB), key);
  if (!row) throw notFound("Transaction");
  return { key, row };
}

const keys = (key: TxKey) => ({
  tx_id: encodeTxId(key.forwardedTo, key.dateFileName),
  forwarded_to: key.forwardedTo,
  date_file_name: key.dateFileName,
});

const listOut = (month: string, rows: ListedRow[] = []) => ({
  month,
  count: rows.length,
  transactions: rows.map(toResponse),
});

export async function listTransactions(
  ctx: ServiceCtx,
  { month, kind }: { month: string; kind: "active" | "trash" | "attention" },
) {
  const [rows] = await listMonths(getDb(ctx.env.DB), [{ ...monthBounds(month), kind }]);
  return listOut(month, rows);
}

const KINDS = ["active", "attention", "trash"] as const;

/** Each month's active, attention and trash lists, every list in ONE read batch. */
export async function combinedMonths(ctx: ServiceCtx, months: string[]) {
  const lists = await listMonths(
    getDb(ctx.env.DB),
    months.flatMap((m) => KINDS.map((kind) => ({ ...monthBounds(m), kind }))),
  );
  return months.map((month, m) => {
    const [transactions, attention, trash] = KINDS.map((_, k) => listOut(month, lists[3 * m + k]));
    return { month, transactions: transactions!, attention: attention!, trash: trash! };
  });
}

export async function combined(ctx: ServiceCtx, month: string) {
  const [one] = await combinedMonths(ctx, [month]);
  return one!;
}

export async function detail(ctx: ServiceCtx, txId: string) {
  const { key, row } = await loadRow(ctx, txId);
  return {
    ...keys(key),
    subject: row.Subject,
    body: row.Body,
    from_name: row.FromName,
    from_email: row.FromEmail,
    to_name: row.ToName,
    to_email: row.ToEmail,
    file_name: row.FileName,
    transaction: toResponse(row),
  };
}

export async function latest(ctx: ServiceCtx, month: string | null | undefined) {
  const row = await latestCreated(getDb(ctx.env.DB), month ? monthBounds(month) : null);
  if (!row) return { month: month ?? null, latest: null };
  return { month: month ?? monthOfDateFileName(row.DateFileName), latest: row.CreatedAt };
}

/** Validates a category against the user's list and returns its stored (lowercased) spelling. */
export async function resolveCategory(
  ctx: ServiceCtx,
  { category, loc = ["body", "category"] }: { category: string; loc?: string[] },
) {
  const stored = canonicalCategory(category, await loadCategories(getDb(ctx.env.DB)));
  if (!stored) throw validationError([{ loc, msg: `unknown category "${category}"`, type: "value_error" }]);
  return stored;
}

/**
 * `category`: the edit sets it, so the write is guarded on it still being listed (409 otherwise).
 * The ledger entry (images, `summary` of the change) is written in the edit's own batch.
 */
async function edit(
  ctx: ServiceCtx,
  txId: string,
  change: (row: TxRow, now: string) => Partial<Editable>,
  summary: (row: TxRow, next: Editable) => string,
  opts: { category?: string | null; images?: boolean; loaded?: ReturnType<typeof loadRow> } = {},
) {
  const { category, images = true } = opts;
  const { key, row } = await (opts.loaded ?? loadRow(ctx, txId));
  const before = editableImage(row);
  const next: Editable = { ...imageColumns(before), ...change(row, ctx.clock().toISOString()) };
  const after = editableImage(next);
  // Trash, ignore and review marks are journaled envelope-only (their entries are not undoable).
  const text = summary(row, next);
  const activityId = ctx.journal(
    images
      ? { kind: "transaction", resourceId: txId, before, after, summary: text }
      : { resourceId: txId, summary: text },
  );
  if (!(await writeEditable(ctx.batch, getDb(ctx.env.DB), key, next, category))) {
    throw category ? categoryGone(category) : notFound("Transaction");
  }
  return { key, row, before, after, next, activityId };
}

/** Category correction, review-only mark and state change; touching takes the row off the queue. */
export async function patchTransaction(
  ctx: ServiceCtx,
  { txId, input }: { txId: string; input: z.infer<typeof CategoryUpdateRequest> },
) {
  // The row is read while the category is checked (a person waits on a correction); an unknown
  // category still answers first.
  const loaded = loadRow(ctx, txId);
  loaded.catch(() => {});
  const category = input.category ? await resolveCategory(ctx, { category: input.category }) : null;
  const res = await edit(
    ctx,
    txId,
    (row, now) => {
      const out: Partial<Editable> = {};
      if (category) {
        out.Category = category;
        out.CategoryAudit = correctedAudit(row.CategoryAudit, row.Category, "manual", now);
      } else if (input.reviewed) {
        out.CategoryAudit = reviewedAudit(row.CategoryAudit, now);
      }
      if (input.state === "active") Object.assign(out, { Ignored: 0, DeletedAt: null });
      if (input.state === "ignored") Object.assign(out, { Ignored: 1, DeletedAt: null });
      if (input.state === "trashed") out.DeletedAt = row.DeletedAt ?? now;
      return out;
    },
    (row, next) =>
      `${row.Company ?? "transaction"}: ${category ? `category ${row.Category ?? "none"} → ${next.Category}` : "review/state"}`,
    { category, loaded },
  );
  const state = res.next.DeletedAt ? "trashed" : res.next.Ignored ? "ignored" : "active";
  // Confirming a row flagged as forwarded by an unknown address makes that address known.
  if ((category || input.reviewed) && state === "active")
    await learnForwarder(getDb(ctx.env.DB), res.row.ExtractionAudit, ctx.clock().toISOString());
  return {
    ...res,
    response: {
      ...keys(res.key),
      old_category: res.row.Category,
      new_category: res.next.Category,
      reviewed: Boolean(category || input.reviewed),
      state: input.state ? state : null,
      deleted_at: res.next.DeletedAt,
    },
  };
}

export async function setComment(
  ctx: ServiceCtx,
  { txId, comment }: { txId: string; comment: string | null | undefined },
) {
  const text = comment?.trim() ? comment.trim() : null;
  const res = await edit(
    ctx,
    txId,
    () => ({ Comment: text }),
    (row) => `comment on ${row.Company ?? "transaction"}`,
  );
  return { ...res, response: { ...keys(res.key), comment: text } };
}

/** 422 for an amount that rounds to 0 cents (0.004): the journal stores cents. */
export function nonZeroCents(amount: number, loc: string[]) {
  const cents = toCents(amount);
  if (cents === 0) {
    throw validationError([{ loc, msg: "rounds to 0.00: give at least 0.01", type: "value_error" }]);
  }
  return cents;
}

export async function updateFields(
  ctx: ServiceCtx,
  { txId, input }: { txId: string; input: z.infer<typeof TransactionFieldsUpdateRequest> },
) {
  if (input.amount == null && input.company == null && input.transaction_type == null) {
    throw validationError([
      { loc: ["body"], msg: "give at least one of amount, company, transaction_type", type: "missing" },
    ]);
  }
  const amount = input.amount != null ? nonZeroCents(input.amount, ["body", "amount"]) : null;
  const res = await edit(
    ctx,
    txId,
    () => ({
      ...(amount != null ? { Amount: amount } : {}),
      ...(input.company != null ? { Company: input.company.trim() } : {}),
      ...(input.transaction_type != null ? { TransactionType: input.transaction_type } : {}),
    }),
    (row) => `fields of ${row.Company ?? "transaction"}`,
  );
  return {
    ...res,
    response: {
      ...keys(res.key),
      company: res.next.Company,
      amount: fromCentsOrNull(res.next.Amount),
      transaction_type: res.next.TransactionType,
      category: res.next.Category,
      old_values: {
        company: res.row.Company,
        amount: fromCentsOrNull(res.row.Amount),
        transaction_type: res.row.TransactionType,
      },
    },
  };
}

export async function softDelete(ctx: ServiceCtx, { txId, deleted }: { txId: string; deleted: boolean }) {
  const res = await edit(
    ctx,
    txId,
    (row, now) => ({ DeletedAt: deleted ? (row.DeletedAt ?? now) : null }),
    (row) => `${deleted ? "trashed" : "restored"} ${row.Company ?? ""}`,
    { images: false },
  );
  return { ...res, response: { ...keys(res.key), deleted_at: res.next.DeletedAt } };
}

export async function setIgnored(ctx: ServiceCtx, { txId, ignored }: { txId: string; ignored: boolean }) {
  const res = await edit(
    ctx,
    txId,
    () => ({ Ignored: ignored ? 1 : 0 }),
    (row) => `${ignored ? "ignored" : "unignored"} ${row.Company ?? ""}`,
    { images: false },
  );
  return { ...res, response: { ...keys(res.key), ignored } };
}

export async function markReviewed(ctx: ServiceCtx, txId: string) {
  const res = await edit(
    ctx,
    txId,
    (row, now) => ({ CategoryAudit: reviewedAudit(row.CategoryAudit, now) }),
    (row) => `reviewed ${row.Company ?? ""}`,
    { images: false },
  );
  if (!res.next.DeletedAt)
    await learnForwarder(getDb(ctx.env.DB), res.row.ExtractionAudit, ctx.clock().toISOString());
  return { ...res, response: { ...keys(res.key), source: "audit" } };
}

/** Permanent delete: only from the trash, so one click can never lose a live transaction. */
export async function permanentlyDelete(ctx: ServiceCtx, txId: string) {
  const { key, row } = await loadRow(ctx, txId);
  if (!row.DeletedAt) throw conflict("Move the transaction to the trash before deleting it permanently");
  ctx.journal({ resourceId: txId, summary: "deleted permanently" });
  await ctx.batch(deleteRowStatements(getDb(ctx.env.DB), key, ctx.clock().toISOString()));
  return { ...keys(key) };
}

/**
 * Undo of an added row (a hand add, kind `transaction-add`): the row is deleted for good, in one
 * batch with the revert's entry. 409 when it is gone already.
 */
export async function removeAdded(
  ctx: ServiceCtx,
  { txId, opts }: { txId: string; opts: { journal?: (recreated?: string[]) => void } },
) {
  const { key } = await loadRow(ctx, txId).catch(() => {
    throw conflict("The transaction no longer exists");
  });
  opts.journal?.();
  await ctx.batch(deleteRowStatements(getDb(ctx.env.DB), key, ctx.clock().toISOString()));
}

/** Ledger support: the current image, and restoring one. */
export async function currentImage(ctx: ServiceCtx, txId: string) {
  const key = decodeTxId(txId);
  const row = key ? await getRow(getDb(ctx.env.DB), key) : null;
  return row ? editableImage(row) : null;
}

/**
 * Writes a before image back. Its category must still be listed: 409 CATEGORY_DELETED, or with
 * `force` the category is recreated first (returned). The write is guarded like an edit's.
 */
export async function restoreImage(
  ctx: ServiceCtx,
  {
    txId,
    image,
    opts = { force: false },
  }: {
    txId: string;
    image: EditableImage | null;
    opts?: { force: boolean; journal?: (recreated?: string[]) => void };
  },
): Promise<{ recreated_categories: string[] }> {
  const key = keyOf(txId);
  if (!image) throw conflict("Nothing to restore");
  if (!(await getRow(getDb(ctx.env.DB), key))) throw conflict("The transaction no longer exists");
  const cols = imageColumns(image);
  const category = typeof cols.Category === "string" && cols.Category.trim() ? cols.Category : null;
  const recreated = category
    ? await requireLiveCategories(ctx, { names: [category], force: opts.force })
    : [];
  opts.journal?.(recreated); // a revert's own entry rides in the restore's batch
  if (!(await writeEditable(ctx.batch, getDb(ctx.env.DB), key, cols, category)))
    throw categoryGone(category ?? "");
  return { recreated_categories: recreated };
}
