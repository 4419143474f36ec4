/**
 * Reading many tables in pages, several tables' pages in one batch: each batch asks for at most
 * `budget` rows in all (memory stays at one batch's rows, whatever the journal's size).
 */

/** One table (or key list) read in pages; `S` is what the batch runner takes (a statement). */
export interface PageSource<S, R = Record<string, unknown>> {
  /** Rows it is expected to still hold (a count or an estimate), or undefined when unknown. */
  left?: number;
  /** The statement reading its next page of at most `limit` rows (no state changes here). */
  page(limit: number): S;
  /** A page's rows (the source moves its cursor here); `last`: the source is read to its end. */
  take(rows: R[], last: boolean): unknown;
}

/** Runs statements as one batch; each statement's rows, in order. */
type PageRunner<S> = (statements: S[]) => Promise<unknown[][]>;

export const BATCH_ROWS = 2000;

/**
 * Reads every source to its end. A source with a known `left` asks for left + 1 rows (a short page
 * tells it is done) from the batch's room, in order; sources of unknown size (or past their
 * estimate) share the room evenly. `ordered`: a source's rows are taken only once every source before it is read to its end
 * (pages read in the same batch after an unfinished source are dropped and asked again), for a
 * writer that must go table by table. `stop`: asked before each batch; true ends the reading there (a
 * stepped reader's budget is spent: each source's cursor is where the next step goes on).
 */
export async function readPages<S>(
  run: PageRunner<S>,
  sources: PageSource<S>[],
  { budget = BATCH_ROWS, ordered = false, stop = (): boolean => false } = {},
): Promise<void> {
  const open = [...sources];
  while (open.length && !stop()) {
    let room = budget;
    const unknown = open.filter((s) => s.left === undefined).length;
    const share = Math.max(1, Math.floor(budget / Math.max(1, unknown)));
    const picked: { s: PageSource<S>; limit: number }[] = [];
    for (const s of open) {
      if (room < 1) break;
      const limit = Math.min(room, s.left === undefined ? share : s.left + 1);
      picked.push({ s, limit });
      room -= limit;
    }
    const pages = await run(picked.map(({ s, limit }) => s.page(limit)));
    for (const [i, { s, limit }] of picked.entries()) {
      const rows = (pages[i] ?? []) as Record<string, unknown>[];
      const last = rows.length < limit;
      await s.take(rows, last);
      if (last) open.splice(open.indexOf(s), 1);
      else {
        // Past its estimate (rows added since the count): of unknown size from now on.
        if (s.left !== undefined) s.left = s.left > rows.length ? s.left - rows.length : undefined;
        if (ordered) break;
      }
    }
  }
}
