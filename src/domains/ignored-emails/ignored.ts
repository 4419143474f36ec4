/**
 * What the relevance gate let go is listed, not lost: one row per ignored email (kept
 * 90 days), and the addresses the owner vouched for (an alert sender whose emails always pass the
 * gate; a forwarder whose forwarded alerts are trusted). Nothing here throws into the pipeline.
 */
import type { Db } from "../../db";
import type { Statement } from "../../db/lists";
import { log } from "../../lib/log";
import { sha256Hex } from "../../ingest/hash";
import { deleteIgnoredBefore, insertTrust, trustedRowsQuery, upsertIgnored } from "./queries";

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

/** Lists the email (redelivery refreshes the row but keeps when it first came and its status). */
export async function recordIgnored(
  db: Db,
  e: IgnoredInput,
  nowIso: string,
  write: (stmt: Statement, id: string) => Promise<unknown> = (stmt) => db.batch([stmt]),
): Promise<string | null> {
  try {
    const id = `ign_${(await sha256Hex(`ignored:${e.rawSha256}`)).slice(0, 24)}`;
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
    await write(upsertIgnored(db, { id, status: "ignored", received_at: nowIso }, fields), id);
    return id;
  } catch (err) {
    log("warn", "ingest.ignored_record_failed", { error: String(err) });
    return null;
  }
}

/** Whether the owner vouched for this address (lookups fail closed: not trusted). */
export async function isTrusted(db: Db, address: string | null, kind: TrustKind): Promise<boolean> {
  const a = address?.trim().toLowerCase();
  if (!a) return false;
  try {
    return (await trustedRowsQuery(db, a, kind).get()) !== undefined;
  } catch (err) {
    log("warn", "ingest.trust_read_failed", { error: String(err) });
    return false;
  }
}

/** Records the address as vouched for (known before: no change); awaited, or a statement for the caller's batch. */
export const trust = (db: Db, address: string, kind: TrustKind, source: string, nowIso: string) =>
  insertTrust(db, { address: address.trim().toLowerCase(), kind, source, created_at: nowIso });

/** Retention: ignored emails older than 90 days go (the daily duty calls this). */
export async function pruneIgnored(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - IGNORED_RETENTION_DAYS * 24 * 3600 * 1000).toISOString();
  const res = await deleteIgnoredBefore(db, cutoff);
  return res.meta?.changes ?? 0;
}
