/**
 * ingestEmail(raw, deps): the single entry every door calls (Email Routing, IMAP poll, R2 object
 * event, upload-eml). `createIngestDeps` builds the production collaborators from the Worker env.
 */
import { aiFor } from "../ai/routing";
import { getDb } from "../db";
import type { AiProvider } from "../ai/provider";
import { getConfig } from "../domains/config/service";
import type { Env } from "../env";
import { type Clock, systemClock } from "../lib/clock";
import { log } from "../lib/log";
import { notifierFromEnv } from "../notify";
import { localParts } from "./dates";
import { sha256Hex } from "./hash";
import { bareAddress, scanRecipient } from "./mime";
import { runPipeline } from "./pipeline";
import { headerDate, scanHeader } from "./raw";
import { senderHost } from "../domains/templates/engine/text";
import { loadIngestSettings, type OneEmail } from "./settings";
import type { IngestDeps, IngestOutcome, IngestSettings, Notifier } from "./types";

export type { IngestDeps, IngestOutcome, IngestSettings, Notifier, TransactionRecord } from "./types";

/** Runs the pipeline and logs one line per email. Throws only on a storage outage. */
export async function ingestEmail(raw: Uint8Array | string, deps: IngestDeps): Promise<IngestOutcome> {
  const outcome = await runPipeline(raw, deps);
  log("info", "ingest.outcome", {
    source: deps.source ?? "unknown",
    status: outcome.status,
    ...(outcome.status === "created" || outcome.status === "duplicate"
      ? { date_file_name: outcome.tx.DateFileName, institution: outcome.tx.Institution }
      : {}),
    ...(outcome.status === "quarantined" ? { id: outcome.id, failure_stage: outcome.failure_stage } : {}),
    ...(outcome.status === "ignored" ? { reason: outcome.reason } : {}),
  });
  return outcome;
}

/** With `recipient` (the one email's, from its envelope: Email Routing) its reads join the settings'. */
export interface DepsOptions extends Partial<Omit<OneEmail, "clock">> {
  clock?: Clock;
  source?: string;
  /** Replace the provider (tests pass a hosted provider aimed at the fake model server). */
  ai?: AiProvider | null;
  notify?: Notifier;
  settings?: Partial<IngestSettings>;
  /** The calling verb's ledger (its request context): the outcome's entry rides in its write. */
  ledger?: IngestDeps["ledger"];
}

/**
 * Production collaborators: settings from getConfig(), and the model the routing layer gives the
 * categorization task (it also rescues alerts no parser reads); none when that task is off.
 */
export async function createIngestDeps(env: Env, opts: DepsOptions = {}): Promise<IngestDeps> {
  const { recipient, targetsYear, templatesHost, unread } = opts;
  const clock = opts.clock ?? systemClock;
  const one = recipient !== undefined ? { recipient, clock, targetsYear, templatesHost, unread } : undefined;
  const settings = { ...(await loadIngestSettings(env, one)), ...(opts.settings ?? {}) };
  const ai =
    opts.ai !== undefined
      ? opts.ai
      : aiFor(env, await getConfig({ env }), "categorization", { maxRetries: 1 });
  return {
    db: getDb(env.DB),
    files: env.FILES,
    clock,
    ai,
    notify: opts.notify ?? notifierFromEnv(env),
    settings,
    source: opts.source ?? "unknown",
    ...(opts.ledger ? { ledger: opts.ledger } : {}),
  };
}

/**
 * What one email's head tells before it is parsed, for the settings batch (`DepsOptions`): its
 * recipient, its row's year in the configured zone (so the month context is written in the
 * insert's own batch) and its sender's host (its learned templates); they join the settings batch
 * only with a recipient. Guesses only: a forwarded alert's own date or sender, or an odd To header
 * that the parse reads otherwise, costs the read it would have saved, never a wrong value.
 */
export async function headReads(
  env: Env,
  raw: Uint8Array,
  clock: Clock,
): Promise<Pick<DepsOptions, "recipient" | "targetsYear" | "templatesHost" | "unread">> {
  const recipient = scanRecipient(raw);
  // The sender's learned templates and an unread email's reads too: when no parser reads it.
  const fromEmail = bareAddress(scanHeader(raw, "from") ?? "");
  const host = senderHost(fromEmail);
  const unread = { fromEmail, messageId: scanHeader(raw, "message-id"), rawSha256: await sha256Hex(raw) };
  const { timezone } = await getConfig({ env });
  return {
    ...(recipient ? { recipient } : {}),
    targetsYear: Number(localParts(headerDate(raw) ?? clock(), timezone).year),
    ...(host ? { templatesHost: host } : {}),
    unread,
  };
}

/** One email through a door: its head's reads (`headReads`) join the settings batch. */
export async function ingestAtDoor(env: Env, raw: Uint8Array, opts: DepsOptions & { source: string }) {
  const head = await headReads(env, raw, opts.clock ?? systemClock);
  return ingestEmail(raw, await createIngestDeps(env, { ...head, ...opts }));
}

/** The callback the IMAP poller takes: `pollMailbox({ ..., ingest: imapIngest(env, clock) })`. */
export function imapIngest(
  env: Env,
  clock: Clock = systemClock,
  opts: Omit<DepsOptions, "clock" | "source"> = {},
) {
  return (raw: Uint8Array, _meta: { uid: number }) =>
    ingestAtDoor(env, raw, { ...opts, clock, source: "imap" });
}
