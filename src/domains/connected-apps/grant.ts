/**
 * What an OAuth grant means to the rest of the Worker, with no import of the OAuth library (the
 * HTTP auth layer and its unit tests load this in plain Node): the scope a grant maps onto, the
 * props the MCP handler receives, and the last-use stamp Connected apps shows.
 */
import type { Env } from "../../env";
import { log } from "../../lib/log";

/** The existing token scope an OAuth grant maps onto. */
export function principalScope(scopes: readonly string[]): "read" | "read+write" {
  return scopes.includes("write") ? "read+write" : "read";
}

/** What the app receives as `ctx.props` on /mcp. */
export type McpProps = { kind: "fin" } | { kind: "oauth"; clientName: string };

export const USED_PREFIX = "fj-app-used:";
const STAMP_EVERY_MS = 60_000;

/** Records a grant's last use (the library does not): one KV key per grant, at most once a minute. */
export async function stampAppUse(env: Env, grantId: string, now: Date): Promise<void> {
  const kv = env.OAUTH_KV;
  if (!kv) return;
  try {
    const key = USED_PREFIX + grantId;
    const last = await kv.get(key);
    if (last && now.getTime() - Date.parse(last) < STAMP_EVERY_MS) return;
    await kv.put(key, now.toISOString(), { expirationTtl: 90 * 24 * 3600 });
  } catch (err) {
    log("warn", "oauth.stamp_failed", { grant: grantId, error: String(err) });
  }
}

/**
 * A name an app gave itself, safe to show: controls (C0, C1) and the characters that reorder text
 * (bidi embeddings, overrides and isolates, the implicit marks) become U+FFFD, so "evil\u202Etxt.exe"
 * cannot read as another name; runs of spaces fold, ends are trimmed, at most 100 characters.
 */
export function plainName(value: string): string {
  return value
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "\ufffd")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 100);
}
