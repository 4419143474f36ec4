/** Queries of embeddings (the vector cache, keyed by model and text). No rules here. */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db";
import { embeddings as e } from "../db/schema";

/** The stored vectors of `texts` under `model` (keep `texts` ≤ 50: D1 binds ≤ 100 parameters). */
export const cachedVectorsQuery = (db: Db, model: string, texts: string[]) =>
  db
    .select({ text: e.text, vector: e.vector })
    .from(e)
    .where(and(eq(e.model, model), inArray(e.text, texts)));

/** Stores (or replaces) one vector (unexecuted: for the caller's batch). */
export const putVectorQuery = (db: Db, row: typeof e.$inferInsert) =>
  db
    .insert(e)
    .values(row)
    .onConflictDoUpdate({
      target: [e.model, e.text],
      set: { vector: row.vector, created_at: row.created_at },
    });
