/**
 * R2 door: an object created under INBOX_PREFIX arrives as an R2 event notification on the
 * queue; the consumer hands it here. Errors propagate so the consumer retries with backoff.
 * Once ingested, the inbox object is deleted (the pipeline has kept the raw under emails/), so
 * the every-minute sweep only finds what no notification delivered: locally (wrangler dev has no
 * R2 notifications), or a notification lost in transit.
 */
import type { Env } from "../../env";
import type { QueueMessage } from "../../jobs/messages";
import { log } from "../../lib/log";
import { type DepsOptions, ingestAtDoor } from "..";
import type { IngestOutcome } from "../types";

export function inboxPrefix(env: Env): string {
  return env.INBOX_PREFIX || "inbox/";
}

const CREATED = /^(PutObject|CopyObject|CompleteMultipartUpload|object-create)/i;

export async function handleInboxObject(
  env: Env,
  msg: QueueMessage,
  opts: DepsOptions = {},
): Promise<IngestOutcome | null> {
  if ("type" in msg) return null;
  const key = msg.object.key;
  if (!key.startsWith(inboxPrefix(env)) || !CREATED.test(msg.action)) {
    log("info", "r2_event.skipped", { key, action: msg.action });
    return null;
  }
  const object = await env.FILES.get(key);
  if (!object) {
    log("warn", "r2_event.object_missing", { key });
    return null;
  }
  const bytes = new Uint8Array(await object.arrayBuffer());
  const outcome = await ingestAtDoor(env, bytes, { ...opts, source: "r2" });
  await env.FILES.delete(key);
  return outcome;
}

/** Ingests inbox objects no notification handled (oldest first, a few per tick). Never throws. */
export async function sweepInbox(env: Env, opts: DepsOptions & { limit?: number } = {}): Promise<number> {
  let done = 0;
  try {
    const listed = await env.FILES.list({ prefix: inboxPrefix(env), limit: opts.limit ?? 25 });
    for (const obj of listed.objects) {
      try {
        const msg = { bucket: "sweep", action: "PutObject", object: { key: obj.key, size: obj.size } };
        if (await handleInboxObject(env, msg, opts)) done++;
      } catch (err) {
        log("warn", "r2_sweep.ingest_failed", { key: obj.key, error: String(err) });
      }
    }
  } catch (err) {
    log("warn", "r2_sweep.list_failed", { error: String(err) });
  }
  return done;
}
