/**
 * What the relevance gate let go is listed, not lost (issue 27): one row per ignored email (kept
 * 90 days), and the addresses the owner vouched for (an alert sender whose emails always pass the
 * gate; a forwarder whose forwarded alerts are trusted). Nothing here throws into the pipeline.
 */
import type { Batch } from "../lib/context";
import { and, desc, eq, gte, lt } from "drizzle-orm";
import { getDb } from "../db";
import { ignoredEmails, senderTrust } from "../db/schema";
import { log } from "../lib/log";
import { sha256Hex } from "./hash";

export const IGNORED_RETENTION_DAYS = 90;

export type TrustKind = "alert_sender" | "forwarder";

export interface IgnoredInput {
  rawSha256: string;
  rawKey: string;
  reason: string;
  reasonText: string;
  fromName: string | null;
  fromEmail: string | null;
  subject: string | null;
  emailDate: string | null;
  messageId: string | null;
  forwardedTo: string | null;
}

export async function ignoredId(rawSha256: string): Promise<string> {
  return `ign_${(await sha256Hex(`ignored:${rawSha256}`)).slice(0, 24)}`;
}

/** Lists the email (redelivery refreshes the row but keeps when it first came and its status). */
export async function recordIgnored(d1: D1Database, e: IgnoredInput, nowIso: string): Promise<string | null> {
  try {
    const id = await ignoredId(e.rawSha256);
    const fields = {
      reason: e.reason,
      reason_text: e.reasonText,
      from_name: e.fromName || null,
      from_email: e.fromEmail?.toLowerCase() || null,
      subject: e.subject || null,
      email_date: e.emailDate,
      message_id: e.messageId,
      forwarded_to: e.forwardedTo,
      raw_key: e.rawKey,
      raw_sha256: e.rawSha256,
      updated_at: nowIso,
    };
    await getDb(d1)
      .insert(ignoredEmails)
      .values({ id, status: "ignored", received_at: nowIso, ...fields })
      .onConflictDoUpdate({ target: ignoredEmails.id, set: fields });
    return id;
  } catch (err) {
    log("warn", "ingest.ignored_record_failed", { error: String(err) });
    return null;
  }
}

/** Whether the owner vouched for this address (lookups fail closed: not trusted). */
export async function isTrusted(d1: D1Database, address: string | null, kind: TrustKind): Promise<boolean> {
  const a = address?.trim().toLowerCase();
  if (!a) return false;
  try {
    const row = await getDb(d1)
      .select({ address: senderTrust.address })
      .from(senderTrust)
      .where(and(eq(senderTrust.address, a), eq(senderTrust.kind, kind)))
      .get();
    return row !== undefined;
  } catch (err) {
    log("warn", "ingest.trust_read_failed", { error: String(err) });
    return false;
  }
}

/** Records the address as vouched for; true when it was not known before. */
export async function trust(
  d1: D1Database,
  address: string,
  kind: TrustKind,
  source: string,
  nowIso: string,
): Promise<boolean> {
  const res = await getDb(d1)
    .insert(senderTrust)
    .values({ address: address.trim().toLowerCase(), kind, source, created_at: nowIso })
    .onConflictDoNothing();
  return (res.meta?.changes ?? 0) > 0;
}

/** Retention: ignored emails older than 90 days go (the daily duty calls this). */
export async function pruneIgnored(d1: D1Database, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - IGNORED_RETENTION_DAYS * 24 * 3600 * 1000).toISOString();
  const res = await getDb(d1).delete(ignoredEmails).where(lt(ignoredEmails.received_at, cutoff));
  return res.meta?.changes ?? 0;
}

/** Ignored emails received since `cutoffIso`, newest first (the ignored-emails page). */
export const listIgnoredRows = (d1: D1Database, cutoffIso: string, limit: number) =>
  getDb(d1)
    .select()
    .from(ignoredEmails)
    .where(gte(ignoredEmails.received_at, cutoffIso))
    .orderBy(desc(ignoredEmails.received_at))
    .limit(limit)
    .all();

export const getIgnoredRow = (d1: D1Database, id: string) =>
  getDb(d1).select().from(ignoredEmails).where(eq(ignoredEmails.id, id)).get();

/** The person said "this was a bank alert": the row records where its re-run landed. */
/** `batch`: the caller's ServiceCtx.batch, which carries the write's ledger entry. */
export async function markSentToReview(
  d1: D1Database,
  id: string,
  failureId: string | null,
  nowIso: string,
  batch: Batch,
) {
  const db = getDb(d1);
  await batch([
    db
      .update(ignoredEmails)
      .set({ status: "sent_to_review", failure_id: failureId, updated_at: nowIso })
      .where(eq(ignoredEmails.id, id)),
  ]);
}
