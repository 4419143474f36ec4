/**
 * Versioned configuration lists shared by the category, override, alias and ignore-rule domains:
 * one version counter per list in config_versions (bumped in the write's own batch), and the R2
 * JSON backup that every write refreshes and every read falls back to when D1 fails (SPEC.md
 * storage rules). A list is its config_versions name (also its backup name) and its read query.
 */
import { eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Batch } from "../lib/context";
import type { Env } from "../env";
import { readWithFallback, saveBackup } from "../lib/backup";
import { log } from "../lib/log";
import { type Db, getDb } from "./index";
import { configVersions } from "./schema";

export type Statement = BatchItem<"sqlite">;

export interface ListDef<T> {
  /** The config_versions row and the R2 backup name. */
  name: string;
  /** The list's rows, in list order; the backup stores exactly these objects. */
  query: (db: Db) => Statement & PromiseLike<T[]>;
}

export interface Snapshot<T> {
  version: number;
  items: T[];
}

/** D1's batch wants a non-empty tuple; callers always pass at least the version bump. */
export const batchOf = (stmts: Statement[]) => stmts as [Statement, ...Statement[]];

/** The statement that bumps a list's version; put it in the same batch as the write. */
export function bumpVersion(db: Db, name: string, nowIso: string): Statement {
  return db
    .insert(configVersions)
    .values({ name, version: 1, updated_at: nowIso })
    .onConflictDoUpdate({
      target: configVersions.name,
      set: { version: sql`${configVersions.version} + 1`, updated_at: nowIso },
    });
}

/** The current versions of some lists (a list never written has none: read it as 0). */
export function listVersions(db: Db, names: string[]) {
  return db
    .select({ name: configVersions.name, version: configVersions.version })
    .from(configVersions)
    .where(inArray(configVersions.name, names));
}

/** Items and version read in one batch, so they agree. */
async function readSnapshot<T>(db: Db, list: ListDef<T>): Promise<Snapshot<T>> {
  const [items, version] = await db.batch([
    list.query(db),
    db
      .select({ version: configVersions.version })
      .from(configVersions)
      .where(eq(configVersions.name, list.name)),
  ]);
  return { version: version[0]?.version ?? 0, items: items as T[] };
}

/** The list from D1; when D1 fails, from its R2 backup (an empty list when there is none). */
export async function loadList<T>(env: Env, list: ListDef<T>): Promise<Snapshot<T>> {
  const { value } = await readWithFallback<Snapshot<T>>(env.FILES, list.name, () =>
    readSnapshot(getDb(env.DB), list),
  );
  return { version: value?.version ?? 0, items: Array.isArray(value?.items) ? value.items : [] };
}

/** Re-reads the list after a write and saves it as the R2 backup (never fails the write). */
export async function backupList<T>(env: Env, list: ListDef<T>): Promise<void> {
  try {
    await saveBackup(env.FILES, list.name, await readSnapshot(getDb(env.DB), list));
  } catch (err) {
    log("warn", "backup.snapshot_failed", { name: list.name, error: String(err) });
  }
}

/**
 * Runs `stmts` and the list's version bump in one batch, then refreshes the backup. Returns the
 * results of `stmts` (D1 results for writes: `meta.changes`). `batch`: the verb's
 * ServiceCtx.batch, so its ledger entry is written in the same batch.
 */
export async function writeList<T>(
  env: Env,
  list: ListDef<T>,
  stmts: Statement[],
  nowIso: string,
  batch?: Batch,
): Promise<unknown[]> {
  const db = getDb(env.DB);
  const all = batchOf([...stmts, bumpVersion(db, list.name, nowIso)]);
  const results: unknown[] = batch ? await batch(all) : await db.batch(all);
  await backupList(env, list);
  return results.slice(0, stmts.length);
}

/** Rows a write statement changed, from its batch result. */
export const changes = (r: unknown): number => (r as D1Result | undefined)?.meta?.changes ?? 0;
