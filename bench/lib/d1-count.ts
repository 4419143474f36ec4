/**
 * A D1 binding that counts its round trips: every `first`, `all`, `run` or `raw` of a prepared
 * statement is one, a `batch` is one whatever its length, an `exec` is one. Each trip keeps its
 * SQL (the batch's statements) and whether it began after `settle()` was called (background work
 * the response did not wait for, e.g. a `waitUntil` stamp).
 */
export interface Trip {
  kind: "single" | "batch" | "exec";
  sql: string[];
  /** Began after the response was complete (waitUntil work). */
  background: boolean;
  /** Began while another trip was in flight (it adds no latency of its own in sequence). */
  overlapped: boolean;
}

export interface CountingD1 {
  db: D1Database;
  trips: Trip[];
  /** Marks the response complete: later trips count as background. */
  settle(): void;
  /** Forgets the trips so far and clears the mark. */
  reset(): void;
}

/**
 * A test's hooks: `failBatch`, an outage — a batch whose SQL it accepts fails (counted, never run),
 * to drive the fallback of a read batch; `hold`, a delay — a single statement waits for the promise
 * it returns before it runs (to show a response does not wait for that statement).
 */
export interface CountingHooks {
  failBatch?: (sql: string[]) => boolean;
  hold?: (sql: string) => Promise<void> | undefined;
}

/** One statement as D1 receives it: its SQL and its bound values. */
export interface D1Query {
  sql: string;
  params: unknown[];
}

/**
 * What a wrapper does around each D1 call: `single` wraps one statement's `first`/`all`/`run`/`raw`,
 * `batch` a batch (its statements in order), `exec` an exec. Each gets the call and `run`, which
 * makes it on the binding underneath; what it returns is the call's answer.
 */
export interface D1Intercept {
  single?: (q: D1Query, run: () => Promise<unknown>) => Promise<unknown>;
  batch?: (qs: D1Query[], run: () => Promise<unknown>) => Promise<unknown>;
  exec?: (sql: string, run: () => Promise<unknown>) => Promise<unknown>;
}

/**
 * THE wrapper of a D1 binding (the round-trip counter and the limits check are two uses): every
 * prepared statement keeps its SQL and bound values, and every call passes through the hooks.
 * Wrappers nest (a counter over the limits-checked binding of the test setup).
 */
export function interceptD1(real: D1Database, hooks: D1Intercept): D1Database {
  const queryOf = new WeakMap<object, D1Query>();
  const track = (stmt: D1PreparedStatement, q: D1Query): D1PreparedStatement => {
    queryOf.set(stmt, q);
    const s = stmt as unknown as Record<string, (...a: unknown[]) => unknown>;
    for (const m of ["all", "raw", "run", "first"]) {
      const orig = s[m]!;
      const run = (a: unknown[]) => () => orig.apply(stmt, a) as Promise<unknown>;
      s[m] = (...a: unknown[]) => (hooks.single ? hooks.single(q, run(a)) : run(a)());
    }
    const bind = s.bind!;
    s.bind = (...a: unknown[]) =>
      track(bind.apply(stmt, a) as D1PreparedStatement, { sql: q.sql, params: a });
    return stmt;
  };
  const db = {
    prepare: (sql: string) => track(real.prepare(sql), { sql, params: [] }),
    batch: (stmts: D1PreparedStatement[]) => {
      const run = () => real.batch(stmts);
      const qs = stmts.map((st) => queryOf.get(st) ?? { sql: "?", params: [] });
      return hooks.batch ? hooks.batch(qs, run) : run();
    },
    exec: (sql: string) => (hooks.exec ? hooks.exec(sql, () => real.exec(sql)) : real.exec(sql)),
    dump: () => real.dump(),
    withSession: () => {
      throw new Error("interceptD1: withSession is not wrapped");
    },
  };
  return db as unknown as D1Database;
}

export function countingD1(real: D1Database, { failBatch, hold }: CountingHooks = {}): CountingD1 {
  const trips: Trip[] = [];
  let settled = false;
  let inFlight = 0;
  /** Records a trip and keeps count of those in flight. */
  const trip = <T>(kind: Trip["kind"], sql: string[], run: () => Promise<T>): Promise<T> => {
    trips.push({ kind, sql, background: settled, overlapped: inFlight > 0 });
    inFlight++;
    return run().finally(() => {
      inFlight--;
    });
  };
  const db = interceptD1(real, {
    single: (q, run) =>
      trip("single", [q.sql], async () => {
        await hold?.(q.sql);
        return run();
      }),
    batch: (qs, run) => {
      const sql = qs.map((q) => q.sql);
      return trip("batch", sql, () =>
        failBatch?.(sql) ? Promise.reject(new Error("D1_ERROR: simulated outage")) : run(),
      );
    },
    exec: (sql, run) => trip("exec", [sql], run),
  });
  return {
    db,
    trips,
    settle: () => {
      settled = true;
    },
    reset: () => {
      trips.length = 0;
      settled = false;
    },
  };
}

/** One line per trip (a batch's repeated statements once, with their count), for finding reads to fold. */
export function describeTrips(trips: Trip[]): string[] {
  return trips.map((t, i) => {
    const counts = new Map<string, number>();
    for (const s of t.sql) {
      const k = s.replace(/\s+/g, " ").slice(0, 80);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const what = [...counts].map(([k, n]) => (n > 1 ? `${n} × ${k}` : k)).join(" | ");
    const tags = [t.background ? "background" : "", t.overlapped ? "overlapped" : ""].filter(Boolean);
    return `${i + 1}. ${t.kind}${tags.length ? ` (${tags.join(", ")})` : ""}: ${what}`;
  });
}

/** Trips the response waited for, and of those, the ones made one after another. */
export function tally(trips: Trip[]): { trips: number; inSequence: number; background: number } {
  const path = trips.filter((t) => !t.background);
  return {
    trips: path.length,
    inSequence: path.filter((t) => !t.overlapped).length,
    background: trips.length - path.length,
  };
}

/**
 * Lone settings reads of a request that outlived this isolate's settings copy (`ttlMs` of wall
 * time): the auth batch refreshes a stale copy, so such a read can only come from a request slower
 * than the copy's life (a loaded machine), not from a verb's design. The sweeps do not hold these
 * against the targets.
 */
export const lateSettingsReads = (trips: Trip[], elapsedMs: number, ttlMs: number): number =>
  elapsedMs < ttlMs
    ? 0
    : trips.filter((x) => x.kind === "single" && !x.background && /from "app_config"/i.test(x.sql[0] ?? ""))
        .length;
