/**
 * The configuration lists' R2 backups after a restore with apply_config: each list and its version
 * are read at the end of the swap's own batch (they see the restored rows), then saved as the
 * backup the list's own writes keep.
 */
import type { Db } from "../../db";
import { type ListDef, type Statement, snapshotParts } from "../../db/lists";
import type { Env } from "../../env";
import { saveBackup } from "../../lib/backup";
import { CATEGORIES } from "../categories/queries";
import { DISMISSED_IGNORE, IGNORE_RULES } from "../ignore-rules/queries";
import { ALIASES } from "../merchant-aliases/queries";
import { DISMISSED, OVERRIDES } from "../overrides/queries";

// biome-ignore lint/suspicious/noExplicitAny: lists of different row types, only re-read and saved
const LISTS: ListDef<any>[] = [CATEGORIES, OVERRIDES, ALIASES, IGNORE_RULES, DISMISSED, DISMISSED_IGNORE];

/** Two reads a list (items, version), in LISTS order. */
export const listReads = (db: Db): Statement[] => LISTS.flatMap((list) => snapshotParts(db, list));

/** Saves each list's snapshot from the results of `listReads` (a failed save is logged, never thrown). */
export async function saveLists(env: Env, results: unknown[]): Promise<void> {
  for (const [i, list] of LISTS.entries()) {
    const version = (results[2 * i + 1] as { version: number }[] | undefined)?.[0]?.version ?? 0;
    await saveBackup(env.FILES, list.name, { version, items: results[2 * i] ?? [] });
  }
}
