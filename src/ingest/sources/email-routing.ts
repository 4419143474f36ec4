import type { Env } from "../../env";
import { log } from "../../lib/log";

/**
 * Email Routing door. Until the ingest pipeline lands, the raw message is kept in R2 under the
 * inbox prefix so nothing is lost; the pipeline replays it from there.
 */
export async function receiveEmail(
  message: ForwardableEmailMessage,
  env: Env,
  _ctx: ExecutionContext,
): Promise<void> {
  const raw = await new Response(message.raw).arrayBuffer();
  const key = `${env.INBOX_PREFIX || "inbox/"}${new Date().toISOString().slice(0, 10)}/${crypto.randomUUID()}.eml`;
  await env.FILES.put(key, raw, { customMetadata: { from: message.from, to: message.to } });
  log("info", "email.received", { key, size: raw.byteLength });
}
