/**
 * R2 JSON backups of configuration (SPEC.md's configuration-backup rule, Cloudflare-style):
 * every write also saves a copy; reads fall back to it when D1 fails.
 */
import { log } from "./log";

const PREFIX = "backups/config/";

export async function saveBackup(bucket: R2Bucket, name: string, data: unknown): Promise<void> {
  try {
    await bucket.put(`${PREFIX}${name}.json`, JSON.stringify(data), {
      httpMetadata: { contentType: "application/json" },
    });
  } catch (err) {
    log("warn", "backup.write_failed", { name, error: String(err) });
  }
}

export async function loadBackup<T>(bucket: R2Bucket, name: string): Promise<T | null> {
  try {
    const obj = await bucket.get(`${PREFIX}${name}.json`);
    return obj ? ((await obj.json()) as T) : null;
  } catch (err) {
    log("warn", "backup.read_failed", { name, error: String(err) });
    return null;
  }
}

/** Reads from D1; when that throws, from the R2 backup (logged once). */
export async function readWithFallback<T>(
  bucket: R2Bucket,
  name: string,
  primary: () => Promise<T | null>,
): Promise<{ value: T | null; source: "d1" | "backup" }> {
  try {
    return { value: await primary(), source: "d1" };
  } catch (err) {
    log("warn", "config.d1_read_failed_using_backup", { name, error: String(err) });
    return { value: await loadBackup<T>(bucket, name), source: "backup" };
  }
}
