/**
 * Reading many tables in pages, several tables' pages in ONE round trip: each batch asks for at
 * most `budget` rows in all (memory stays at one batch's rows, whatever the journal's size), and a
 * household of normal size is read in one or two batches instead of one trip per table page.
 * A reader that counts its tables first can put every source's first page in that same batch
 * (firstPages / takeFirstPages: each limit computed in SQL from the counts, within the budget).
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
export type PageRunner<S> = (statements: S[]) => Promise<unknown[][]>;

export const BATCH_ROWS = 2000;

/**
 * Reads every source to its end. A source with a known `left` asks for left + 1 rows (a short page
 * tells it is done) from the batch's room, in order; sources of unknown size (or past their
 * estimate) share the room evenly. `ordered`: a source's rows are taken only once every source before it is read to its end
 * (pages read in the same batch after an unfinished source are dropped and asked again), for a
 * writer that must go table by table. `first`: the caller's statements riding in the first batch;
 * their results are returned. `stop`: asked before each batch; true ends the reading there (a
 * stepped reader's budget is spent: each source's cursor is where the next step goes on).
 */
export async function readPages<S>(
  run: PageRunner<S>,
  sources: PageSource<S>[],
  { budget = BATCH_ROWS, ordered = false, first = [] as S[], stop = (): boolean => false } = {},
): Promise<unknown[][]> {
  const open = [...sources];
  let extra = first;
  let extraResults: unknown[][] = [];
  while ((open.length && !stop()) || extra.length) {
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
    const results = await run([...extra, ...picked.map(({ s, limit }) => s.page(limit))]);
    if (extra.length) extraResults = results.slice(0, extra.length);
    const pages = results.slice(extra.length);
    extra = [];
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
  return extraResults;
}

/**
 * A source whose size SQL can count, so its first page rides in the batch that reads the counts:
 * `rows` is a one-term SELECT (no UNION at its top) with one row per row the source holds.
 */
export interface SizedSource<S> extends PageSource<S> {
  rows: string;
  /** Its next page with the limit given as a SQL expression (evaluated once, in the batch). */
  pageUpTo(limitSql: string): S;
}

/**
 * The first batch's limits, from the sources' sizes, in order: each asks for size + 1 rows (a short
 * page tells it is done) from what the sources before it left of the budget, never below 0. Their
 * sum never exceeds the budget; once one source does not fit, every later one gets 0.
 */
export function firstLimits(sizes: number[], budget = BATCH_ROWS): number[] {
  let used = 0;
  return sizes.map((n) => {
    const limit = Math.max(0, Math.min(n + 1, budget - used));
    used += n + 1;
    return limit;
  });
}

/**
 * The same limit as firstLimits, as SQL, for source `i`: its own size and the sources before it
 * (all together) are counted in the statement, each count stopping at budget + 1 rows (a large
 * table costs at most that much counting; past it the room is gone anyway).
 */
export function firstLimitSql(rows: readonly string[], i: number, budget = BATCH_ROWS): string {
  const cap = budget + 1;
  const own = `(SELECT COUNT(*) FROM (${rows[i]} LIMIT ${cap}))`;
  if (i === 0) return `max(0, min(${own} + 1, ${budget}))`;
  const before = `(SELECT COUNT(*) FROM (${unionAll(rows.slice(0, i))} LIMIT ${cap}))`;
  return `max(0, min(${own} + 1, ${budget - i} - ${before}))`;
}

/** D1 (workerd's SQLite) allows at most 5 terms in one compound SELECT. */
const COMPOUND_TERMS = 5;

/**
 * The rows of every term (each a one-term SELECT) as one SELECT, nested in groups of at most
 * COMPOUND_TERMS; an outer LIMIT still stops the scan there (SQLite runs them as co-routines).
 */
function unionAll(terms: readonly string[]): string {
  if (terms.length <= COMPOUND_TERMS) return terms.join(" UNION ALL ");
  const groups: string[] = [];
  for (let k = 0; k < terms.length; k += COMPOUND_TERMS)
    groups.push(`SELECT 1 FROM (${unionAll(terms.slice(k, k + COMPOUND_TERMS))})`);
  return unionAll(groups);
}

/** Each source's first page, sized in SQL (what firstLimits gives once the sizes are known). */
export const firstPages = <S>(sources: SizedSource<S>[], budget = BATCH_ROWS): S[] =>
  sources.map((s, i) =>
    s.pageUpTo(
      firstLimitSql(
        sources.map((x) => x.rows),
        i,
        budget,
      ),
    ),
  );

/**
 * Takes the first pages (read in the same batch, the same snapshot, as `sizes`); returns the
 * sources still to read, in order, each with its `left` set, for readPages to go on from where
 * each stopped.
 */
export async function takeFirstPages<S>(
  sources: SizedSource<S>[],
  pages: unknown[][],
  sizes: number[],
  budget = BATCH_ROWS,
): Promise<SizedSource<S>[]> {
  const limits = firstLimits(sizes, budget);
  const open: SizedSource<S>[] = [];
  for (const [i, s] of sources.entries()) {
    const size = sizes[i] ?? 0;
    const limit = limits[i] ?? 0;
    s.left = size;
    if (limit === 0) {
      open.push(s);
      continue;
    }
    const rows = (pages[i] ?? []) as Record<string, unknown>[];
    const last = rows.length < limit;
    await s.take(rows, last);
    if (!last) {
      s.left = size > rows.length ? size - rows.length : undefined;
      open.push(s);
    }
  }
  return open;
}
