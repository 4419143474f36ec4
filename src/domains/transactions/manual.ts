/**
 * Hand-entered transactions: the same commit path as the email doors (hash, dedup, DateFileName,
 * context), overrides-only categorization, no notification. A typed date is stored at 00:00.
 */
import type { z } from "zod";
import { isCalendarDate } from "../../lib/calendar";
import { getDb } from "../../db";
import { createIngestDeps } from "../../ingest";
import { commitTransaction, type Draft, draftHash, typedCategory } from "../../ingest/commit";
import { dateFileName, dayParts, displayDate } from "../../ingest/dates";
import { sha256Hex } from "../../ingest/hash";
import type { ServiceCtx } from "../../lib/context";
import { conflict, validationError } from "../../lib/errors";
import { encodeTxId } from "../../lib/txid";
import { getRow } from "./queries";
import { createdImage, MANUAL_RECIPIENT, toResponse } from "./rules";
import type { ManualTransactionRequest } from "./schemas";
import { nonZeroCents, resolveCategory } from "./service";

/** The 409 code of a hand add whose identical twin is stored (`details.existing` shows it). */
export const DUPLICATE_TRANSACTION = "DUPLICATE_TRANSACTION";

export async function addManual(ctx: ServiceCtx, input: z.infer<typeof ManualTransactionRequest>) {
  if (!isCalendarDate(input.date)) {
    throw validationError(
      [{ loc: ["body", "date"], msg: "not a real date", type: "value_error" }],
      "Invalid date",
    );
  }
  const amount = nonZeroCents(input.amount, ["body", "amount"]);
  const category = input.category ? await resolveCategory(ctx, { category: input.category }) : null;
  // The recipient and the year are known up front: the override resolver's reads and the year's
  // budget targets join the settings batch, so the context is written in the insert's own batch.
  const deps = await createIngestDeps(ctx.env, {
    clock: ctx.clock,
    ai: null,
    source: "manual",
    recipient: MANUAL_RECIPIENT,
    targetsYear: Number(input.date.slice(0, 4)),
  });
  const parts = dayParts(input.date, deps.settings.timezone);
  const draft: Draft = {
    ForwardedTo: MANUAL_RECIPIENT,
    DateFileName: "",
    UserId: deps.settings.userId,
    Institution: input.institution?.trim() || "Manual",
    Amount: amount,
    Company: input.company.trim(),
    TransactionType: input.transaction_type,
    Name: input.name?.trim() || null,
    Date: displayDate(parts),
    FileName: "",
    FromName: "",
    FromEmail: "",
    ToName: "",
    ToEmail: "",
    Subject: "Manual entry",
    Body: "",
  };
  // "Add anyway": a second identical entry is told apart from the first by a nonce in its hash
  // (as a statement tells two identical lines apart by occurrence), so the dedup check lets it in.
  if (input.allow_duplicate) {
    draft.TransactionHash = await sha256Hex(`${await draftHash(draft)}|copy|${crypto.randomUUID()}`);
  }
  // The file is named after the hash, so an identical entry lands on the same name.
  const hash = draft.TransactionHash ?? (await draftHash(draft));
  draft.DateFileName = dateFileName(parts, `manual_${(await sha256Hex(hash)).slice(0, 8)}`);
  const summary = (status: string) => `${status}: ${input.company} ${input.amount}`;
  // Undoable (kind `transaction-add`), journaled in the insert's own batch.
  const result = await commitTransaction(deps, draft, {
    category: typedCategory(category),
    notify: false,
    journal: {
      ctx,
      entry: (tx) => ({
        kind: "transaction-add",
        resourceId: encodeTxId(MANUAL_RECIPIENT, tx.DateFileName),
        before: {},
        after: createdImage(tx),
        summary: summary("created"),
      }),
    },
  });
  if (result.status === "invalid") {
    throw validationError(
      [{ loc: ["body"], msg: result.reason, type: "value_error" }],
      "The transaction was rejected by validation",
    );
  }
  const dfn = result.tx.DateFileName;
  const txId = encodeTxId(MANUAL_RECIPIENT, dfn);
  if (result.status === "duplicate") {
    // Nothing was written: a 409 that shows the stored twin, so the person can add anyway.
    const twin = await getRow(getDb(ctx.env.DB), { forwardedTo: MANUAL_RECIPIENT, dateFileName: dfn });
    throw conflict(
      "An identical transaction (same day, amount, merchant, type and institution) is already in the " +
        "journal: nothing was added. Send allow_duplicate: true to add it anyway.",
      DUPLICATE_TRANSACTION,
      {
        tx_id: txId,
        forwarded_to: MANUAL_RECIPIENT,
        date_file_name: dfn,
        existing: twin ? toResponse(twin) : null,
      },
    );
  }
  // The entry rides in the insert's batch; the door writes it when that batch could not.
  const activityId = result.activityId ?? ctx.journal({ resourceId: txId, summary: summary("created") });
  return {
    activityId,
    tx_id: txId,
    forwarded_to: MANUAL_RECIPIENT,
    date_file_name: dfn,
    category: result.tx.Category,
    status: "created" as const,
  };
}
