/**
 * Daily backup (03:30 UTC cron) when `object_backup_enabled`: the same zip as GET /data/export,
 * written to R2 under `object_backup_prefix` (default `backups/daily/`), keeping the newest 30.
 */
import type { Env } from "../../env";
import type { Clock } from "../../lib/clock";
import { log } from "../../lib/log";
import { getConfig } from "../config/service";
import { writeBackup } from "./service";

export const KEEP_DAILY = 30;

export async function dailyBackup(env: Env, clock: Clock): Promise<string | null> {
  const config = await getConfig({ ctx: { env } });
  if (!config.object_backup_enabled) return null;
  const prefix = (config.object_backup_prefix?.trim() || "backups/daily").replace(/\/*$/, "/");
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const [bytes] = await Promise.all([
    new Response(readable).arrayBuffer(),
    writeBackup({ env, clock }, writable),
  ]);
  const key = `${prefix}${clock().toISOString().slice(0, 10)}.zip`;
  await env.FILES.put(key, bytes, { httpMetadata: { contentType: "application/zip" } });
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
