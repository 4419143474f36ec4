/** What a restore with "also restore settings" would replace: per configuration table, the backup's rows and ours. */
import { sql } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { getDb } from "../../db/index";
import type { TableDiff } from "./import-store";

export interface Replaced {
  table: string;
  backup_rows: number;
  current_rows: number;
}

export async function configReplaced(d1: D1Database, diffs: TableDiff[]): Promise<Replaced[]> {
  const db = getDb(d1);
  const config = diffs.filter((d) => d.def.kind === "config");
  if (!config.length) return [];
  const counts = await db.batch(
    config.map((d) => db.select({ n: sql<number>`COUNT(*)` }).from(d.def.table)) as unknown as Parameters<
      typeof db.batch
    >[0],
  );
  return config.map((d, i) => ({
    table: getTableConfig(d.def.table).name,
    backup_rows: d.rows.length,
    current_rows: Number((counts[i] as { n: number }[])[0]?.n ?? 0),
  }));
}
