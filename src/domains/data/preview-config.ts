/** What a restore with "also restore settings" would replace: per configuration table, the backup's rows and ours. */
import { getTableConfig } from "drizzle-orm/sqlite-core";
import type { TableDiff } from "./import-store";

export interface Replaced {
  table: string;
  backup_rows: number;
  current_rows: number;
}

/** From the diff, which read every stored row of the backup's tables. */
export function configReplaced(diffs: TableDiff[]): Replaced[] {
  return diffs
    .filter((d) => d.def.kind === "config")
    .map((d) => ({
      table: getTableConfig(d.def.table).name,
      backup_rows: d.rows.length,
      current_rows: d.stored,
    }));
}
