/**
 * Backup restore staging (migration 0017): the rows of a restore in progress, keyed by its token.
 * They move into the journal in one batch with their deletion (src/domains/data/import-store.ts).
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const restoreStaging = sqliteTable(
  "restore_staging",
  {
    token: text("token").notNull(),
    seq: integer("seq").notNull(),
    /** The journal table the row goes to. */
    tbl: text("tbl").notNull(),
    /** insert (new rows, kept on conflict) | update (overwrite) | replace (configuration). */
    op: text("op").notNull(),
    /** The row's stored columns, comma-joined (rows with the same columns move in one statement). */
    cols: text("cols").notNull(),
    /** JSON object: stored column → value. */
    row: text("row").notNull(),
    created_at: text("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.token, t.seq] }),
    index("idx_restore_staging_op").on(t.token, t.tbl, t.op, t.cols),
  ],
);
