/**
 * An email no parser read, in two round trips: its reads in one batch (whether its sender is a
 * trusted alert sender, the row under its older Message-ID id, its sender domain's drift state)
 * and, when it is quarantined, its writes in one (the failure row with the verb's entry, the
 * once-a-day notice stamp, the drift count). A failing batch throws (the door retries the email).
 */
import type { Db } from "../db";
import { type DriftState, kvPutIfOlder } from "../db/kv";
import { safeSend } from "../notify";
import { failureDetailQuery } from "../domains/parse-failures/queries";
import { trustedRowsQuery } from "../domains/ignored-emails/queries";
import {
  type FailureRow,
  failureStatement,
  messageIdQuarantineId,
  quarantineId,
  readFailureDetail,
} from "./quarantine";
import { driftRead, driftStep, driftWrite } from "../domains/templates/engine";
import type { IngestDeps } from "./types";

export interface UnreadFacts {
  trusted: boolean;
  /** The failure row's id (quarantineIdFor's answer). */
  quarantineId: string;
  /** The sender host's drift state (null: none kept), or no host. */
  drift: { host: string; state: DriftState | null } | null;
}

/** Which email the reads are about (the pipeline checks the parse agrees before using them). */
export interface UnreadKey {
  fromEmail: string;
  messageId: string | null;
  rawSha256: string;
}

/** The reads as statements for a caller's batch, and how their results become the facts. */
export async function unreadPart(db: Db, key: UnreadKey) {
  const id = await quarantineId(key.rawSha256);
  const legacy = key.messageId?.trim() ? await messageIdQuarantineId(key.messageId) : null;
  const drift = driftRead(db, key.fromEmail);
  const from = key.fromEmail.trim().toLowerCase();
  const queries = [
    trustedRowsQuery(db, from, "alert_sender"),
    failureDetailQuery(db, legacy ?? id),
    ...(drift ? [drift.query] : []),
  ] as const;
  const read = (results: readonly unknown[]): UnreadFacts => {
    const [trust, [old] = [], driftRows] = results as [unknown[], { detail: unknown }[], never];
    const sameBytes = legacy && old ? readFailureDetail(old).raw_sha256 === key.rawSha256 : false;
    return {
      trusted: from !== "" && trust.length > 0,
      quarantineId: sameBytes && legacy ? legacy : id,
      drift: drift ? { host: drift.host, state: drift.read(driftRows ?? [])?.value ?? null } : null,
    };
  };
  return { queries, read };
}

/** Whether facts read up front (from the message head) are about this parsed email. */
export const sameUnread = (a: UnreadKey, b: UnreadKey) =>
  a.rawSha256 === b.rawSha256 &&
  a.fromEmail.trim().toLowerCase() === b.fromEmail.trim().toLowerCase() &&
  (a.messageId?.trim() ?? "") === (b.messageId?.trim() ?? "");

/** The reads in one batch (or as the settings batch read them, when the parse agrees). */
export async function readUnread(deps: Pick<IngestDeps, "db" | "settings">, key: UnreadKey) {
  const pre = deps.settings.prefetched?.unread;
  if (pre && sameUnread(pre.key, key)) return pre.facts;
  const part = await unreadPart(deps.db, key);
  return part.read(await deps.db.batch(part.queries));
}

/** The quarantine's writes in one batch with the entry, then its notices. */
export async function writeQuarantine(
  deps: Pick<IngestDeps, "db" | "ledger" | "notify">,
  row: FailureRow,
  facts: UnreadFacts,
  now: Date,
): Promise<void> {
  const nowIso = now.toISOString();
  const step = facts.drift?.state ? driftStep(facts.drift.state) : null;
  const entry = { resourceId: row.id, summary: `quarantined: ${row.id} (${row.stage})` };
  // The institution's notice goes out once a day: its stamp (a JSON string, compared with the
  // cutoff encoded the same way) changes a row only when none went out in the last 24 hours.
  const stampKey = `quarantine_notice:${(row.institution ?? "unknown").toLowerCase()}` as const;
  const cutoff = new Date(now.getTime() - 24 * 3600 * 1000).toISOString();
  const stmts = [
    failureStatement(deps.db, row, nowIso),
    kvPutIfOlder(deps.db, stampKey, nowIso, cutoff, nowIso),
    ...(step && facts.drift ? [driftWrite(deps.db, facts.drift.host, step.next, nowIso)] : []),
  ] as const;
  deps.ledger?.journal(entry);
  const results = await (deps.ledger ? deps.ledger.batch(stmts) : deps.db.batch(stmts));
  const stamped = ((results[1] as D1Result | undefined)?.meta?.changes ?? 0) > 0;
  if (stamped)
    await safeSend(deps.notify, {
      kind: "quarantine",
      title: `Unreadable ${row.institution ?? "bank"} alert quarantined`,
      text: `An email from ${row.institution ?? "an unknown sender"} could not be read (${row.stage}). Review it under Parse failures.`,
    });
  if (step?.notice) await safeSend(deps.notify, step.notice);
}
