/**
 * R2 door: an object created under INBOX_PREFIX arrives as an R2 event notification on the
 * queue; the consumer hands it here. Errors propagate so the consumer retries with backoff.
 */
import type { Env } from "../../env";
import { registerR2Handler } from "../../jobs/consumer";
import type { QueueMessage } from "../../jobs/messages";
import { log } from "../../lib/log";
import { createIngestDeps, type DepsOptions, ingestEmail } from "..";
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
  const deps = await createIngestDeps(env, { ...opts, source: "r2" });
  return ingestEmail(bytes, deps);
}

registerR2Handler(async (env, msg) => {
  await handleInboxObject(env, msg);
});
