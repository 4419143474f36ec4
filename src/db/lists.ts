/**
 * Versioned configuration lists shared by the category, override, alias and ignore-rule domains:
 * one version counter per list in config_versions (bumped in the write's own batch), and the R2
 * JSON backup that every write refreshes and a list's read falls back to when D1 fails (SPEC.md
 * storage rules). A list is its config_versions name (also its backup name) and its read query.
 */
import { eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceCtx } from "../lib/context";
import type { Env } from "../env";
import { loadBackup, saveBackup } from "../lib/backup";
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

/** The two reads of a snapshot (items, version), for a batch that also runs other statements. */
function snapshotParts<T>(db: Db, list: ListDef<T>): [Statement, Statement] {
  return [
    list.query(db),
    db
      .select({ version: configVersions.version })
      .from(configVersions)
      .where(eq(configVersions.name, list.name)),
  ];
}

/** The snapshot from the results of `snapshotParts`. */
const snapshotOf = <T>(items: unknown, version: unknown): Snapshot<T> => ({
  version: (version as { version: number }[])[0]?.version ?? 0,
  items: items as T[],
});

/** The list from D1; when D1 fails, from its R2 backup (an empty list when there is none). */
export async function loadList<T>(env: Env, list: ListDef<T>): Promise<Snapshot<T>> {
  return (await loadLists(env, [list]))[0];
}

type Snapshots<L extends readonly ListDef<unknown>[]> = {
  [K in keyof L]: L[K] extends ListDef<infer T> ? Snapshot<T> : never;
};

/**
 * Several lists in one batch (so they agree); when it fails, each list from its R2 backup (an
 * empty list when there is none).
 */
export async function loadLists<const L extends readonly ListDef<unknown>[]>(
  env: Env,
  lists: L,
): Promise<Snapshots<L>> {
  const db = getDb(env.DB);
  try {
    const all = await db.batch(batchOf(lists.flatMap((l) => snapshotParts(db, l))));
    return lists.map((_, i) => snapshotOf<unknown>(all[2 * i], all[2 * i + 1])) as Snapshots<L>;
  } catch (err) {
    log("warn", "config.d1_read_failed_using_backup", {
      lists: lists.map((l) => l.name),
      error: String(err),
    });
  }
  const backups = await Promise.all(lists.map((l) => loadBackup<Snapshot<unknown>>(env.FILES, l.name)));
  const snapshots = backups.map((b) => ({
    version: b?.version ?? 0,
    items: Array.isArray(b?.items) ? b.items : [],
  }));
  return snapshots as Snapshots<L>;
}

/** A verb's context; without `batch`, a write that carries no ledger entry. */
type ListWriter = Pick<ServiceCtx, "env" | "clock"> & { batch?: ServiceCtx["batch"] };

/**
 * Runs `stmts`, the list's version bump and the re-read of the list in the verb's batch (with its
 * ledger entry), then saves that snapshot as the R2 backup. Returns the results of `stmts` (D1
 * results for writes: `meta.changes`) and the list as written.
 */
export async function writeListSnapshot<T>(
  ctx: ListWriter,
  list: ListDef<T>,
  stmts: Statement[],
): Promise<{ results: unknown[]; snapshot: Snapshot<T> }> {
  const db = getDb(ctx.env.DB);
  const bump = bumpVersion(db, list.name, ctx.clock().toISOString());
  const all = batchOf([...stmts, bump, ...snapshotParts(db, list)]);
  const results: unknown[] = ctx.batch ? await ctx.batch(all) : await db.batch(all);
  const n = stmts.length;
  const snapshot = snapshotOf<T>(results[n + 1], results[n + 2]);
  await saveBackup(ctx.env.FILES, list.name, snapshot);
  return { results: results.slice(0, n), snapshot };
}

/** `writeListSnapshot` for callers that need only the results of `stmts`. */
export async function writeList<T>(
  ctx: ListWriter,
  list: ListDef<T>,
  stmts: Statement[],
): Promise<unknown[]> {
  return (await writeListSnapshot(ctx, list, stmts)).results;
}

/** Rows a write statement changed, from its batch result. */
export const changes = (r: unknown): number => (r as D1Result | undefined)?.meta?.changes ?? 0;
