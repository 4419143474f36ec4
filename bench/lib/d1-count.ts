/**
 * A D1 binding that counts round trips: every `prepare(...).run/all/first/raw` is one, a `batch`
 * is one (D1 runs it in one call), `exec` is one. Wrap the binding a request sees, run it, read
 * `trips` (and `log`, the first words of each call's SQL, to see where the trips go).
 */
const ORIGINAL = Symbol("d1-count.original");

type Wrapped = D1PreparedStatement & { [ORIGINAL]: D1PreparedStatement };

export interface D1Count {
  db: D1Database;
  readonly trips: number;
  /** One line per round trip: `run: SELECT ...` or `batch(3): UPDATE ...; DELETE ...; INSERT ...`. */
  readonly log: readonly string[];
  /** The lines of `log` whose call has answered, in the order they answered. */
  readonly settled: readonly string[];
  reset(): void;
}

const words = (sql: string) => sql.replace(/\s+/g, " ").trim().slice(0, 60);

export function countD1(d1: D1Database): D1Count {
  let log: string[] = [];
  let settled: string[] = [];
  const trip = <T>(line: string, p: Promise<T>): Promise<T> => {
    log.push(line);
    const own = settled;
    return p.then((r) => {
      own.push(line);
      return r;
    });
  };
  const sqlOf = new WeakMap<D1PreparedStatement, string>();
  const wrap = (stmt: D1PreparedStatement, sql: string): Wrapped => {
    const w = new Proxy(stmt, {
      get(target, prop) {
        if (prop === ORIGINAL) return target;
        if (prop === "bind") return (...args: unknown[]) => wrap(target.bind(...args), sql);
        if (prop === "run" || prop === "all" || prop === "first" || prop === "raw") {
          const fn = (target as unknown as Record<string, (...a: unknown[]) => unknown>)[prop]!;
          return (...args: unknown[]) =>
            trip(`${String(prop)}: ${words(sql)}`, fn.apply(target, args) as Promise<unknown>);
        }
        const v = Reflect.get(target, prop, target);
        return typeof v === "function" ? v.bind(target) : v;
      },
    }) as Wrapped;
    sqlOf.set(w, sql);
    return w;
  };
  const unwrap = (s: D1PreparedStatement) => (s as Wrapped)[ORIGINAL] ?? s;
  const db = new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (prop === "batch")
        return (stmts: D1PreparedStatement[]) =>
          trip(
            `batch(${stmts.length}): ${stmts.map((s) => words(sqlOf.get(s) ?? "?")).join("; ")}`,
            target.batch(stmts.map(unwrap)),
          );
      if (prop === "exec") return (sql: string) => trip(`exec: ${words(sql)}`, target.exec(sql));
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return {
    db,
    get trips() {
      return log.length;
    },
    get log() {
      return log;
    },
    get settled() {
      return settled;
    },
    reset() {
      log = [];
      settled = [];
    },
  };
}
