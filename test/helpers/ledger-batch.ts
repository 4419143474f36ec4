// Asserts a write's ledger entry rode in the change's own db.batch (counted with bench/lib/d1-count.ts).
import { expect } from "vitest";
import type { CountingD1, Trip } from "../../bench/lib/d1-count";

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

/** A foreground trip that writes a table other than activity_log (the change itself). */
const changes = (t: Trip) =>
  !t.background &&
  t.sql.some((q) => /^\s*(insert( or replace)? into|update|delete from)\s+"?(?!activity_log\b)\w/i.test(q));

/**
 * The rule for any write, whichever verb: when the request changed D1 rows, every ledger entry it
 * wrote rode in a batch that also wrote them, never alone (the door's settle after the change). A
 * change with no D1 write of its own (KV) may have its entry written alone.
 */
export function expectNoLoneEntry(counter: CountingD1) {
  if (!counter.trips.some(changes)) return;
  for (const t of counter.trips.filter((x) => x.sql.some((q) => inserts(q, "activity_log"))))
    expect(changes(t), `an entry written alone: ${t.sql.join(" ; ")}`).toBe(true);
}
