/** The stored settings: one JSON document in app_config, versioned. */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db";
import type { Batch } from "../../lib/context";
import { appConfig } from "../../db/schema";
import type { StoredConfig } from "./schemas";

const ROW_ID = "app";

/** The stored document's row (unexecuted: the auth middleware may run it inside its one batch). */
export function storedConfigQuery(db: Db) {
  return db.select({ data: appConfig.data }).from(appConfig).where(eq(appConfig.id, ROW_ID));
}

/** The stored document of `storedConfigQuery`'s rows (null: none stored yet). */
export function storedConfigOf(rows: { data: unknown }[]): unknown | null {
  // Checked by the caller with config/rules.ts parseStored (zod).
  return rows[0]?.data ?? null;
}

export async function readStoredConfig(db: Db): Promise<unknown | null> {
  return storedConfigOf(await storedConfigQuery(db));
}

/** `batch`: the verb's ServiceCtx.batch (its ledger entry is written with the config). */
export async function writeStoredConfig(
  db: Db,
  batch: Batch,
  data: StoredConfig,
  nowIso: string,
): Promise<void> {
  await batch([
    db
      .insert(appConfig)
      .values({ id: ROW_ID, data, version: 1, updated_at: nowIso })
      .onConflictDoUpdate({
        target: appConfig.id,
        set: { data, version: sql`${appConfig.version} + 1`, updated_at: nowIso },
      }),
  ]);
}
