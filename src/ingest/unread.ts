/**
 * An email no parser read, in two round trips: its reads in one batch (whether its sender is a
 * trusted alert sender, the row under its older Message-ID id, its sender domain's drift state)
 * and, when it is quarantined, its writes in one (the failure row with the verb's entry, the
 * once-a-day notice stamp, the drift count). When a batch fails the pipeline takes the step-by-step
 * path instead (`null`/`false` here), each step failing open as before.
 */
import { getDb } from "../db";
import type { DriftState } from "../db/kv";
import { log } from "../lib/log";
import { safeSend } from "../notify";
import { failureDetailQuery } from "../domains/parse-failures/queries";
import { trustedRowsQuery } from "./ignored-queries";
import type { ParsedEmail } from "./mime";
import {
  type FailureRow,
  failureStatement,
  messageIdQuarantineId,
  noticeStamp,
  quarantineId,
  quarantineNotice,
  readFailureDetail,
} from "./quarantine";
import { driftRead, driftStep, driftWrite } from "./templates";
import type { IngestDeps } from "./types";

export interface UnreadFacts {
  trusted: boolean;
  /** The failure row's id (quarantineIdFor's answer). */
  quarantineId: string;
  /** The sender host's drift state (null: none kept), or no host. */
  drift: { host: string; state: DriftState | null } | null;
}

/** The reads in one batch; null when it fails (the caller reads each on its own). */
export async function readUnread(
  deps: Pick<IngestDeps, "db">,
  email: Pick<ParsedEmail, "fromEmail" | "messageId">,
  rawSha256: string,
): Promise<UnreadFacts | null> {
  const db = getDb(deps.db);
  const id = await quarantineId(rawSha256);
  const legacy = email.messageId?.trim() ? await messageIdQuarantineId(email.messageId) : null;
  const drift = driftRead(deps.db, email.fromEmail);
  try {
    const [trust, [old], driftRows] = await db.batch([
      trustedRowsQuery(db, email.fromEmail.trim().toLowerCase(), "alert_sender"),
      failureDetailQuery(db, legacy ?? id),
      ...(drift ? [drift.query] : []),
    ]);
    const sameBytes = legacy && old ? readFailureDetail(old).raw_sha256 === rawSha256 : false;
    return {
      trusted: email.fromEmail.trim() !== "" && trust.length > 0,
      quarantineId: sameBytes && legacy ? legacy : id,
      drift: drift && driftRows ? { host: drift.host, state: drift.read(driftRows)?.value ?? null } : null,
    };
  } catch (err) {
    log("warn", "quarantine.reads_batch_failed", { error: String(err) });
    return null;
  }
}

/**
 * The quarantine's writes in one batch with the entry, then its notices. False when the batch
 * failed (nothing written: the caller writes step by step).
 */
export async function writeQuarantine(
  deps: Pick<IngestDeps, "db" | "ledger" | "notify">,
  row: FailureRow,
  facts: UnreadFacts,
  now: Date,
): Promise<boolean> {
  const nowIso = now.toISOString();
  const step = facts.drift?.state ? driftStep(facts.drift.state) : null;
  const entry = { resourceId: row.id, summary: `quarantined: ${row.id} (${row.stage})` };
  const stmts = [
    failureStatement(deps.db, row, nowIso),
    noticeStamp(deps.db, row.institution, now),
    ...(step && facts.drift ? [driftWrite(deps.db, facts.drift.host, step.next, nowIso)] : []),
  ] as const;
  let results: readonly unknown[];
  try {
    // A failed batch drops its queued entry: the step-by-step path journals it again.
    deps.ledger?.journal(entry);
    results = await (deps.ledger ? deps.ledger.batch(stmts) : getDb(deps.db).batch(stmts));
  } catch (err) {
    log("warn", "quarantine.write_batch_failed", { error: String(err) });
    return false;
  }
  const stamped = ((results[1] as D1Result | undefined)?.meta?.changes ?? 0) > 0;
  if (stamped) await safeSend(deps.notify, quarantineNotice(row.institution, row.stage));
  if (step?.notice) await safeSend(deps.notify, step.notice);
  return true;
}
