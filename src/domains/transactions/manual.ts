/**
 * Hand-entered transactions: the same commit path as the email doors (hash, dedup, DateFileName,
 * context), overrides-only categorization, no notification. A typed date is stored at 00:00.
 */
import { isCalendarDate } from "../../lib/calendar";
import { createIngestDeps } from "../../ingest";
import { commitTransaction, type Draft, draftHash, typedCategory } from "../../ingest/commit";
import { dateFileName, dayParts, displayDate } from "../../ingest/dates";
import { sha256Hex } from "../../ingest/hash";
import type { ServiceCtx } from "../../lib/context";
import { validationError } from "../../lib/errors";
import { encodeTxId } from "../../lib/txid";
import { nonZeroCents, resolveCategory } from "./service";

type Ctx = Pick<ServiceCtx, "env" | "clock" | "journal" | "batch">;
export const MANUAL_RECIPIENT = "manual@finance-journal.local";

export interface ManualInput {
  date: string;
  amount: number;
  company: string;
  category?: string | null;
  institution?: string | null;
  name?: string | null;
  transaction_type: string;
}

export async function addManual(ctx: Ctx, input: ManualInput) {
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
  // The file is named after the hash, so an identical entry lands on the same name.
  draft.DateFileName = dateFileName(parts, `manual_${(await sha256Hex(await draftHash(draft))).slice(0, 8)}`);
  const summary = (status: string) => `${status}: ${input.company} ${input.amount}`;
  // Envelope-only (a hand entry is undone by trashing it), written with the row in its own batch.
  const result = await commitTransaction(deps, draft, {
    category: typedCategory(category),
    notify: false,
    journal: {
      ctx,
      entry: (tx) => ({
        resourceId: encodeTxId(MANUAL_RECIPIENT, tx.DateFileName),
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
  // A duplicate changed nothing: its entry has no write to ride in (the door writes it before answering).
  const activityId =
    result.status === "created" && result.activityId
      ? result.activityId
      : ctx.journal({ resourceId: txId, summary: summary(result.status) });
  return {
    activityId,
    tx_id: txId,
    forwarded_to: MANUAL_RECIPIENT,
    date_file_name: dfn,
    category: result.tx.Category,
    status: result.status,
  };
}
