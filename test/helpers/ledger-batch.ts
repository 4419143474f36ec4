// Asserts a write's ledger entry rode in the change's own db.batch (counted with bench/lib/d1-count.ts).
import { expect } from "vitest";
import type { CountingD1 } from "../../bench/lib/d1-count";

const writes = (sql: string, table: string) =>
  new RegExp(`^\\s*(insert into|update|delete from) "${table}"`, "i").test(sql);

const inserts = (sql: string, table: string) => new RegExp(`^\\s*insert into "${table}"`, "i").test(sql);

/**
 * Exactly one trip inserted into activity_log (a revert's stamp of the original is an update, not
 * counted): a batch before the response that also writes `table`.
 */
export function expectEntryInBatch(counter: CountingD1, table: string) {
  const trips = counter.trips.filter((t) => t.sql.some((q) => inserts(q, "activity_log")));
  expect(trips).toHaveLength(1);
  expect(trips[0]).toMatchObject({ kind: "batch", background: false });
  expect(trips[0]!.sql.some((q) => writes(q, table))).toBe(true);
}
