import type { Env } from "../../env";
import { systemClock } from "../../lib/clock";
import { log } from "../../lib/log";
import { type DepsOptions, ingestAtDoor } from "..";
import type { IngestOutcome } from "../types";
import { inboxPrefix } from "./r2-event";

/**
 * Email Routing door: the message goes straight through the pipeline. When the pipeline cannot
 * finish (a storage outage), the raw is parked under INBOX_PREFIX so the R2 door replays it
 * through the queue with retries; only when even that fails does the delivery fail.
 */
export async function receiveEmail(
  message: ForwardableEmailMessage,
  env: Env,
  _ctx: ExecutionContext,
): Promise<void> {
  await routeEmail(message, env);
}

/** The door's body; returns the outcome (null when the email was parked for a retry). */
export async function routeEmail(
  message: Pick<ForwardableEmailMessage, "raw" | "from" | "to">,
  env: Env,
  opts: DepsOptions = {},
): Promise<IngestOutcome | null> {
  const raw = new Uint8Array(await new Response(message.raw).arrayBuffer());
  try {
    // The envelope names the recipient and the sender, as the receiving side gave it (received.ts
    // may vouch for a forwarder by it).
    return await ingestAtDoor(env, raw, {
      ...opts,
      source: "email-routing",
      recipient: message.to,
      settings: { ...opts.settings, envelopeFrom: message.from.toLowerCase() },
    });
  } catch (err) {
    const day = (opts.clock ?? systemClock)().toISOString().slice(0, 10);
    const key = `${inboxPrefix(env)}retry/${day}/${crypto.randomUUID()}.eml`;
    log("error", "email_routing.ingest_failed", { error: String(err), parked_at: key });
    await env.FILES.put(key, raw, { customMetadata: { from: message.from, to: message.to } });
    return null;
  }
}
