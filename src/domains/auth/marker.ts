/**
 * An R2 marker recording that a password exists, so authentication fails closed while D1 is
 * unavailable (config reads fall back to R2 the same way). It holds no secret.
 */
import { log } from "../../lib/log";

const KEY = "backups/auth/state.json";

/** Written before the password itself; a failure aborts set-password. */
export async function markPasswordSet(bucket: R2Bucket, nowIso: string): Promise<void> {
  await bucket.put(KEY, JSON.stringify({ password_set: true, updated_at: nowIso }), {
    httpMetadata: { contentType: "application/json" },
  });
}

/** true/false from the marker; true when R2 fails too (fail closed); false when there is none. */
export async function markerSaysPasswordSet(bucket: R2Bucket): Promise<boolean> {
  try {
    const obj = await bucket.get(KEY);
    return obj ? Boolean(((await obj.json()) as { password_set?: boolean }).password_set) : false;
  } catch (err) {
    log("warn", "auth.marker_read_failed", { error: String(err) });
    return true;
  }
}
