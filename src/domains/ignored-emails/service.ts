import type { IgnoredEmailRow } from "../../db/schema";
import { getDb } from "../../db";
import { createKeyedDeps, ingestEmail } from "../../ingest";
import { IGNORED_RETENTION_DAYS, listIgnoredRows, sentToReviewStatement, trustStatement } from "./ignored";
import { ignoredPart } from "./keyed";
import { reviewLedger } from "./review";
import type { ServiceCtx } from "../../lib/context";
import { conflict, notFound } from "../../lib/errors";
import type { BankAlertResponse } from "./schemas";

const LIST_LIMIT = 500;

const view = (r: IgnoredEmailRow) => ({
  id: r.id,
  status: r.status === "sent_to_review" ? ("sent_to_review" as const) : ("ignored" as const),
  from_name: r.from_name,
  from_email: r.from_email,
  subject: r.subject,
  email_date: r.email_date,
  received_at: r.received_at,
  reason: r.reason,
  reason_text: r.reason_text,
  failure_id: r.failure_id,
});

/** The last 90 days, newest first. */
export async function listIgnoredEmails(ctx: ServiceCtx) {
  const cutoff = new Date(ctx.clock().getTime() - IGNORED_RETENTION_DAYS * 86_400_000).toISOString();
  const rows = await listIgnoredRows(getDb(ctx.env.DB), cutoff, LIST_LIMIT);
  return { count: rows.length, retention_days: IGNORED_RETENTION_DAYS, emails: rows.map(view) };
}

/**
 * "This was a bank alert": the sender becomes an alert sender (its emails always pass the gate from
 * now on) and the kept raw email runs through the pipeline again, landing in Needs review (or read
 * by a template learned for that sender since).
 */
export async function sendToReview(ctx: ServiceCtx, id: string): Promise<BankAlertResponse> {
  // The row and what its stored columns key (the recipient's mapping, the sender's templates, the
  // year's targets, the unread email's reads) in the settings batch.
  const keyed = await createKeyedDeps(
    ctx.env,
    { clock: ctx.clock, source: "ignored_list" },
    ignoredPart(getDb(ctx.env.DB), id),
  );
  const row = keyed.row;
  if (!row) throw notFound("Ignored email");
  if (!row.from_email) throw conflict("This email names no sender address to trust");
  const object = row.raw_key ? await ctx.env.FILES.get(row.raw_key) : null;
  if (!object) throw conflict("The original email is no longer stored");
  const bytes = new Uint8Array(await object.arrayBuffer());
  const nowIso = ctx.clock().toISOString();
  // Its trust, the row's status and the entry ride in the batch that settles the email
  // (`reviewLedger`).
  const sender = row.from_email.trim().toLowerCase();
  const db = getDb(ctx.env.DB);
  const writes = (failureId: string | null) => [
    sentToReviewStatement(db, id, failureId, nowIso),
    trustStatement(db, sender, "alert_sender", "ignored_email", nowIso),
  ];
  const entry = (status: string) => ({
    resourceId: id,
    summary: `Marked an ignored email from ${row.from_email} as a bank alert (${status})`,
  });
  const review = reviewLedger(ctx, { writes, entry });
  // The sender is trusted for this run (`alertSenders`).
  const deps = {
    ...keyed.deps,
    settings: { ...keyed.deps.settings, alertSenders: [sender] },
    ledger: review.ledger,
  };
  const outcome = await ingestEmail(bytes, deps);
  const failureId = outcome.status === "quarantined" ? outcome.id : null;
  const dfn = outcome.status === "created" || outcome.status === "duplicate" ? outcome.tx.DateFileName : null;
  if (review.settledAs() !== outcome.status) {
    // A guarded insert that stored nothing (a duplicate) wrote no entry: the door writes this one.
    ctx.journal(entry(outcome.status));
  }
  if (review.settledAs() === null) {
    // No batch settled the email (a duplicate with no note): the writes go alone, with the entry.
    const [sent, trust] = writes(failureId);
    await ctx.batch([sent!, trust!]);
  }
  return {
    id,
    status: "sent_to_review",
    outcome: outcome.status,
    failure_id: failureId,
    date_file_name: dfn,
    alert_sender: row.from_email,
  };
}
