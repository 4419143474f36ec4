/**
 * Versioned configuration lists shared by the category, override, alias and ignore-rule domains:
 * one version counter per list (bumped in the write's own batch), and the R2 JSON backup that
 * every write refreshes and every read falls back to when D1 fails (SPEC.md storage rules).
 */
import type { Env } from "../../env";
import { readWithFallback, saveBackup } from "../../lib/backup";
import { log } from "../../lib/log";

export interface Snapshot<T> {
  version: number;
  items: T[];
}

/** The statement that bumps a list's version; put it in the same batch as the write. */
export function bumpVersion(db: D1Database, name: string, nowIso: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO config_versions (name, version, updated_at) VALUES (?1, 1, ?2)
       ON CONFLICT (name) DO UPDATE SET version = version + 1, updated_at = ?2`,
    )
    .bind(name, nowIso);
}

async function readSnapshot<T>(db: D1Database, name: string, sql: string): Promise<Snapshot<T>> {
  const [items, version] = await db.batch([
    db.prepare(sql),
    db.prepare("SELECT version FROM config_versions WHERE name = ?").bind(name),
  ]);
  const v = (version?.results[0] as { version?: number } | undefined)?.version ?? 0;
  return { version: v, items: (items?.results ?? []) as T[] };
}

/** The list from D1; when D1 fails, from its R2 backup (an empty list when there is none). */
export async function loadList<T>(env: Env, name: string, sql: string): Promise<Snapshot<T>> {
  const { value } = await readWithFallback<Snapshot<T>>(env.FILES, name, () =>
    readSnapshot<T>(env.DB, name, sql),
  );
  return { version: value?.version ?? 0, items: Array.isArray(value?.items) ? value.items : [] };
}

/** Re-reads the list after a write and saves it as the R2 backup (never fails the write). */
export async function backupList(env: Env, name: string, sql: string): Promise<void> {
  try {
    await saveBackup(env.FILES, name, await readSnapshot(env.DB, name, sql));
  } catch (err) {
    log("warn", "backup.snapshot_failed", { name, error: String(err) });
  }
}
