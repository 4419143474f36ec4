/**
 * Daily backup (03:30 UTC cron) when `object_backup_enabled`: the same zip as GET /data/export,
 * written to R2 under `object_backup_prefix` (default `backups/daily/`), keeping the newest 30.
 * The zip (files included, so it can be large) is streamed into an R2 multipart upload in 8 MB
 * parts: never held whole in memory.
 */
import type { Env } from "../../env";
import type { Clock } from "../../lib/clock";
import { log } from "../../lib/log";
import { getConfig } from "../config/service";
import { writeBackup } from "./service";

export const KEEP_DAILY = 30;

export async function dailyBackup(env: Env, clock: Clock): Promise<string | null> {
  const config = await getConfig({ env });
  if (!config.object_backup_enabled) return null;
  const prefix = (config.object_backup_prefix?.trim() || "backups/daily").replace(/\/*$/, "/");
  const key = `${prefix}${clock().toISOString().slice(0, 10)}.zip`;
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const [bytes] = await Promise.all([
    uploadStream(env.FILES, key, readable),
    writeBackup({ env, clock }, writable),
  ]);
  const listed = await env.FILES.list({ prefix });
  const old = listed.objects
    .map((o) => o.key)
    .filter((k) => k.endsWith(".zip"))
    .sort()
    .slice(0, -KEEP_DAILY);
  if (old.length) await env.FILES.delete(old);
  log("info", "backup.daily", { key, bytes: bytes.byteLength, pruned: old.length });
  return key;
}

const PART = 8 * 1024 * 1024;

/**
 * Streams into R2: a zip under one part is one put; a larger one goes as a multipart upload in
 * parts of PART bytes (R2 wants at least 5 MiB for every part but the last).
 */
async function uploadStream(bucket: R2Bucket, key: string, stream: ReadableStream<Uint8Array>) {
  const meta = { httpMetadata: { contentType: "application/zip" } };
  let upload: R2MultipartUpload | null = null;
  const parts: R2UploadedPart[] = [];
  const buffer = new Uint8Array(PART);
  let filled = 0;
  let total = 0;
  const send = async () => {
    upload ??= await bucket.createMultipartUpload(key, meta);
    parts.push(await upload.uploadPart(parts.length + 1, buffer.slice(0, filled)));
    filled = 0;
  };
  try {
    const reader = stream.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      total += value.byteLength;
      let at = 0;
      while (at < value.byteLength) {
        const n = Math.min(PART - filled, value.byteLength - at);
        buffer.set(value.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === PART) await send();
      }
    }
    if (!upload) {
      await bucket.put(key, buffer.slice(0, filled), meta);
      return { byteLength: total };
    }
    if (filled) await send();
    await (upload as R2MultipartUpload).complete(parts);
    return { byteLength: total };
  } catch (err) {
    await (upload as R2MultipartUpload | null)?.abort().catch(() => undefined);
    throw err;
  }
}
