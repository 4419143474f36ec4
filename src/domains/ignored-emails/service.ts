import type { IgnoredEmailRow } from "../../db/schema";
import { getDb } from "../../db";
import { ingestAtDoor } from "../../ingest";
import {
  IGNORED_RETENTION_DAYS,
  ignoredRowQuery,
  listIgnoredRows,
  sentToReviewQuery,
  trustStatement,
} from "./ignored";
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
  const db = getDb(ctx.env.DB);
  const [row] = await ignoredRowQuery(db, id);
  if (!row) throw notFound("Ignored email");
  if (!row.from_email) throw conflict("This email names no sender address to trust");
  const object = row.raw_key ? await ctx.env.FILES.get(row.raw_key) : null;
  if (!object) throw conflict("The original email is no longer stored");
  const bytes = new Uint8Array(await object.arrayBuffer());
  const nowIso = ctx.clock().toISOString();
  const sender = row.from_email.trim().toLowerCase();
  // The sender is trusted for this run.
  const outcome = await ingestAtDoor(ctx.env, bytes, {
    clock: ctx.clock,
    source: "ignored_list",
    settings: { alertSenders: [sender] },
  });
  const failureId = outcome.status === "quarantined" ? outcome.id : null;
  const dfn = outcome.status === "created" || outcome.status === "duplicate" ? outcome.tx.DateFileName : null;
  ctx.journal({
    resourceId: id,
    summary: `Marked an ignored email from ${row.from_email} as a bank alert (${outcome.status})`,
  });
  await ctx.batch([
    sentToReviewQuery(db, id, failureId, nowIso),
    trustStatement(db, sender, "alert_sender", "ignored_email", nowIso),
  ]);
  return {
    id,
    status: "sent_to_review",
    outcome: outcome.status,
    failure_id: failureId,
    date_file_name: dfn,
    alert_sender: row.from_email,
  };
}
