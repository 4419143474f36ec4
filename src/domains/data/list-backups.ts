/**
 * The configuration lists' R2 backups after a restore with apply_config: each list and its version
 * are re-read once the swap is in, then saved as the backup the list's own writes keep.
 */
import { type ListDef, loadLists } from "../../db/lists";
import type { Env } from "../../env";
import { saveBackup } from "../../lib/backup";
import { CATEGORIES } from "../categories/queries";
import { DISMISSED_IGNORE, IGNORE_RULES } from "../ignore-rules/queries";
import { ALIASES } from "../merchant-aliases/queries";
import { DISMISSED, OVERRIDES } from "../overrides/queries";

// biome-ignore lint/suspicious/noExplicitAny: lists of different row types, only re-read and saved
const LISTS: ListDef<any>[] = [CATEGORIES, OVERRIDES, ALIASES, IGNORE_RULES, DISMISSED, DISMISSED_IGNORE];

/** Saves each list's snapshot as its R2 backup (a failed save is logged, never thrown). */
export async function saveLists(env: Env): Promise<void> {
  const snapshots = await loadLists(env, LISTS);
  for (const [i, list] of LISTS.entries()) await saveBackup(env.FILES, list.name, snapshots[i]);
}
