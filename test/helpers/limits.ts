import { interceptD1 } from "../../bench/lib/d1-count";

/**
 * Cloudflare's production limits, enforced on the bindings the tests use. `wrangler dev` and the
 * vitest pool run a local SQLite with its own (larger) limits, so a query that D1 refuses deployed
 * passes locally; here every integration test (test/setup/apply-migrations.ts wraps env.DB, FILES,
 * JOBS, OAUTH_KV) and every request of call() and the round-trip sweeps (perInvocation) runs under
 * the documented numbers, and a breach fails the test with the limit named.
 *
 * Numbers (checked 2026-11-28):
 * - D1 (developers.cloudflare.com/d1/platform/limits): 100 bound parameters per query, 100,000-byte
 *   statements, 32 arguments per SQL function, 50-byte LIKE/GLOB patterns, 2,000,000-byte strings,
 *   BLOBs and rows, 1,000 queries per Worker invocation (Paid; 50 Free). 5 terms per compound SELECT
 *   (issue 36's measurement of the deployed D1).
 * - Workers (developers.cloudflare.com/workers/platform/limits, kv/platform/limits): 1,000 operations
 *   on Cloudflare services (KV, R2, D1, Queues, a Durable Object stub's calls...) per invocation;
 *   Free: 50 subrequests.
 * - Queues (queues/platform/limits): 128 KB a message (1 KB = 1,000 bytes, ~100 bytes of metadata
 *   count), sendBatch at most 100 messages and 256 KB in all.
 * - KV: 25 MiB a value, 512-byte keys, 1 write per second to the same key.
 *
 * A breach throws where D1 would (`D1_ERROR: … (limit: …)`) AND is recorded: the setup fails the
 * test after it ends, so a caller that catches the error (a fallback) still shows it.
 */

export const D1_LIMITS = {
  boundParameters: 100,
  statementBytes: 100_000,
  functionArguments: 32,
  likePatternBytes: 50,
  valueBytes: 2_000_000,
  rowBytes: 2_000_000,
  compoundTerms: 5,
} as const;

/** Per invocation, by Workers plan: D1 queries and operations on bindings (subrequests). */
export const PLAN_LIMITS = {
  paid: { d1Queries: 1000, operations: 1000 },
  free: { d1Queries: 50, operations: 50 },
} as const;
export type Plan = keyof typeof PLAN_LIMITS;

export const QUEUE_LIMITS = {
  messageBytes: 128_000,
  metadataBytes: 100,
  batchMessages: 100,
  batchBytes: 256_000,
};
export const KV_LIMITS = { valueBytes: 25 * 1024 * 1024, keyBytes: 512, writeIntervalMs: 1000 };

export type LimitName =
  | "bound parameters"
  | "statement bytes"
  | "function arguments"
  | "LIKE/GLOB pattern bytes"
  | "value bytes"
  | "row bytes"
  | "compound SELECT terms"
  | "D1 queries per invocation"
  | "operations per invocation"
  | "queue message bytes"
  | "queue batch"
  | "KV value bytes"
  | "KV key bytes"
  | "KV writes per second per key";

export interface Breach {
  limit: LimitName;
  value: number;
  max: number;
  what: string;
}

// ---------------------------------------------------------------------------------------------
// The record: breaches since the last take (the setup fails a test that left one), and the largest
// value each limit met (the report of issue 36: how close the suite comes to each).

const breaches: Breach[] = [];
const peaks = new Map<LimitName, { value: number; what: string }>();

function seen(limit: LimitName, value: number, max: number, what: () => string): void {
  const peak = peaks.get(limit);
  if (!peak || value > peak.value) peaks.set(limit, { value, what: value > max / 4 ? what() : "" });
  if (value > max) {
    const b = { limit, value, max, what: what().slice(0, 300) };
    breaches.push(b);
    throw new LimitError(b);
  }
}

export class LimitError extends Error {
  constructor(readonly breach: Breach) {
    super(
      `D1_ERROR: production limit exceeded: ${breach.limit} ${breach.value} > ${breach.max} (${breach.what})`,
    );
  }
}

/** The breaches recorded since the last call (and forgets them). */
export function takeBreaches(): Breach[] {
  return breaches.splice(0);
}

/** The largest value each limit met so far in this workerd, in words. */
export function peakReport(): string[] {
  return [...peaks].map(([k, p]) => `${k}: ${p.value}${p.what ? ` (${p.what.slice(0, 120)})` : ""}`);
}

/** Runs `fn` expecting it to breach `limit`: the breach is taken off the record (the test shows it). */
export async function expectBreach(limit: LimitName, fn: () => Promise<unknown>): Promise<Breach> {
  takeBreaches();
  await Promise.resolve()
    .then(fn)
    .catch(() => undefined);
  const found = takeBreaches();
  const hit = found.find((b) => b.limit === limit);
  if (!hit)
    throw new Error(
      `expected the ${limit} limit to be breached; breached: ${found.map((b) => b.limit).join(", ") || "none"}`,
    );
  return hit;
}

// ---------------------------------------------------------------------------------------------
// Sizes

/** UTF-8 bytes of a string (no copy). */
export function utf8Bytes(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x800) {
      // A surrogate pair is 4 bytes for 2 code units; any other code unit from U+0800 is 3.
      n += c >= 0xd800 && c <= 0xdbff ? 1 : 2;
      if (c >= 0xd800 && c <= 0xdbff) i++;
    } else if (c >= 0x80) n += 1;
  }
  return n;
}

/** Bytes of a stored value as SQLite counts them (text in UTF-8, a BLOB's length, 8 for a number). */
export function valueBytes(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === "string") return utf8Bytes(v);
  if (v instanceof ArrayBuffer) return v.byteLength;
  if (ArrayBuffer.isView(v)) return v.byteLength;
  if (Array.isArray(v)) return v.length; // a BLOB handed over as an array of bytes
  return 8;
}

// ---------------------------------------------------------------------------------------------
// The SQL scan: function calls and their argument counts, LIKE/GLOB patterns, compound terms.

type Tok = { k: "word" | "str" | "param" | "op" | "num" | "ident"; v: string; n?: number };

/** SQLite's tokens, enough to find calls, patterns and compound operators (comments dropped). */
export function tokenize(sql: string): Tok[] {
  const out: Tok[] = [];
  let params = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "-" && sql[i + 1] === "-") {
      const e = sql.indexOf("\n", i);
      i = e < 0 ? sql.length : e + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      const e = sql.indexOf("*/", i + 2);
      i = e < 0 ? sql.length : e + 2;
    } else if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      let j = i + 1;
      let v = "";
      for (;;) {
        const e = sql.indexOf(close, j);
        if (e < 0) {
          v += sql.slice(j);
          j = sql.length;
          break;
        }
        v += sql.slice(j, e);
        if (close !== "]" && sql[e + 1] === close) {
          v += close;
          j = e + 2;
          continue;
        }
        j = e + 1;
        break;
      }
      out.push({ k: c === "'" ? "str" : "ident", v });
      i = j;
    } else if (c === "?" || ((c === ":" || c === "@" || c === "$") && /[A-Za-z_]/.test(sql[i + 1] ?? ""))) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_]/.test(sql[j]!)) j++;
      const digits = c === "?" ? sql.slice(i + 1, j) : "";
      const n = digits ? Number(digits) : ++params;
      if (digits) params = Math.max(params, n);
      out.push({ k: "param", v: sql.slice(i, j), n });
      i = j;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_$]/.test(sql[j]!)) j++;
      out.push({ k: "word", v: sql.slice(i, j).toUpperCase() });
      i = j;
    } else if (/[0-9.]/.test(c) && /[0-9]/.test(sql[i + 1] ?? c)) {
      let j = i + 1;
      while (j < sql.length && /[0-9A-Za-z_.]/.test(sql[j]!)) j++;
      out.push({ k: "num", v: sql.slice(i, j) });
      i = j;
    } else if (c === "|" && sql[i + 1] === "|") {
      out.push({ k: "op", v: "||" });
      i += 2;
    } else {
      out.push({ k: "op", v: c });
      i++;
    }
  }
  return out;
}

/** Words before `(` that are not function calls. */
const NOT_CALLS = new Set(
  "IN VALUES AS OVER FILTER EXISTS USING ON KEY CHECK UNIQUE REFERENCES TABLE INDEX INTO AND OR NOT WHERE SELECT FROM JOIN WHEN THEN ELSE CASE IS BY SET DEFAULT PRIMARY FOREIGN CONSTRAINT RETURNING LIMIT OFFSET WITH RECURSIVE ALL DISTINCT UNION EXCEPT INTERSECT END LIKE GLOB BETWEEN CONFLICT DO UPDATE EXPLAIN PLAN QUERY VIEW TRIGGER GENERATED ALWAYS COLLATE HAVING GROUP ORDER ESCAPE NULLS".split(
    " ",
  ),
);
/** A name after these words is a table's (its column list follows), not a function's. */
const TABLE_BEFORE = new Set([
  "INTO",
  "TABLE",
  "INDEX",
  "REFERENCES",
  "EXISTS",
  "VIEW",
  "ON",
  "JOIN",
  "FROM",
  "UPDATE",
]);
/** Where a LIKE operand ends. */
const OPERAND_END = new Set([
  "ESCAPE",
  "AND",
  "OR",
  "THEN",
  "WHEN",
  "ELSE",
  "END",
  "ORDER",
  "GROUP",
  "LIMIT",
  "COLLATE",
  "IS",
  "NOT",
]);

export interface SqlShape {
  /** Function calls with their argument counts (largest first). */
  calls: { name: string; args: number }[];
  /** LIKE/GLOB patterns: the literal bytes and the bound parameters (1-based) concatenated. */
  patterns: { literalBytes: number; params: number[] }[];
  /** The most terms of any one compound SELECT. */
  compoundTerms: number;
  /** Placeholders in the text. */
  placeholders: number;
}

export function shapeOf(sql: string): SqlShape {
  const toks = tokenize(sql);
  const calls: SqlShape["calls"] = [];
  const patterns: SqlShape["patterns"] = [];
  // Per open parenthesis: the compound operators met at that depth.
  const compound: number[] = [0];
  let compoundTerms = 1;
  let placeholders = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.k === "param") placeholders = Math.max(placeholders, t.n ?? 0);
    if (t.k === "op" && t.v === "(") compound.push(0);
    if (t.k === "op" && t.v === ")") {
      compoundTerms = Math.max(compoundTerms, (compound.pop() ?? 0) + 1);
      if (compound.length === 0) compound.push(0);
    }
    if (t.k === "word" && (t.v === "UNION" || t.v === "INTERSECT" || t.v === "EXCEPT")) {
      compound[compound.length - 1]!++;
    }
    const next = toks[i + 1];
    if (t.k === "word" && next?.k === "op" && next.v === "(" && !NOT_CALLS.has(t.v)) {
      const prev = toks[i - 1];
      if (!(prev?.k === "word" && TABLE_BEFORE.has(prev.v)))
        calls.push({ name: t.v.toLowerCase(), args: argsAt(toks, i + 1) });
    }
    if (t.k === "word" && (t.v === "LIKE" || t.v === "GLOB")) {
      const p = operandAt(toks, i + 1);
      if (p) patterns.push(p);
    }
  }
  compoundTerms = Math.max(compoundTerms, ...compound.map((c) => c + 1));
  calls.sort((a, b) => b.args - a.args);
  return { calls, patterns, compoundTerms, placeholders };
}

/** The arguments of the call whose `(` is at `open`: commas at its depth, plus one (none in `()`). */
function argsAt(toks: Tok[], open: number): number {
  let depth = 0;
  let commas = 0;
  for (let j = open; j < toks.length; j++) {
    const t = toks[j]!;
    if (t.k !== "op") continue;
    if (t.v === "(") depth++;
    else if (t.v === ")") {
      depth--;
      if (depth === 0) return j === open + 1 ? 0 : commas + 1;
    } else if (t.v === "," && depth === 1) commas++;
  }
  return commas + 1;
}

/** A LIKE/GLOB operand made of literals and placeholders joined by `||` (null when it is anything else). */
function operandAt(toks: Tok[], from: number): SqlShape["patterns"][number] | null {
  let literalBytes = 0;
  const params: number[] = [];
  let j = from;
  for (; j < toks.length; j++) {
    const t = toks[j]!;
    if (t.k === "str") literalBytes += utf8Bytes(t.v);
    else if (t.k === "param") params.push(t.n ?? 0);
    else if (t.k === "op" && t.v === "||") continue;
    else if (
      (t.k === "word" && OPERAND_END.has(t.v)) ||
      (t.k === "op" && (t.v === ")" || t.v === ",")) ||
      (t.k === "op" && t.v === ";")
    )
      break;
    else return null;
  }
  return j === from ? null : { literalBytes, params };
}

const shapes = new Map<string, SqlShape>();
function cachedShape(sql: string): SqlShape {
  let s = shapes.get(sql);
  if (!s) {
    s = shapeOf(sql);
    if (shapes.size > 5000) shapes.clear();
    shapes.set(sql, s);
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// D1

const brief = (sql: string) => sql.replace(/\s+/g, " ").slice(0, 160);

/** Checks one statement against D1's statement limits (before it runs). */
export function checkStatement(sql: string, params: unknown[]): void {
  const what = () => brief(sql);
  seen("statement bytes", utf8Bytes(sql), D1_LIMITS.statementBytes, what);
  const shape = cachedShape(sql);
  seen("bound parameters", Math.max(params.length, shape.placeholders), D1_LIMITS.boundParameters, what);
  for (const v of params)
    seen("value bytes", valueBytes(v), D1_LIMITS.valueBytes, () => `a bound value of ${what()}`);
  const widest = shape.calls[0];
  if (widest)
    seen(
      "function arguments",
      widest.args,
      D1_LIMITS.functionArguments,
      () => `${widest.name}() in ${what()}`,
    );
  seen("compound SELECT terms", shape.compoundTerms, D1_LIMITS.compoundTerms, what);
  for (const p of shape.patterns) {
    const bytes = p.literalBytes + p.params.reduce((n, i) => n + valueBytes(params[i - 1]), 0);
    seen("LIKE/GLOB pattern bytes", bytes, D1_LIMITS.likePatternBytes, what);
  }
}

/** Checks what a statement gave back: each value and each row under 2,000,000 bytes. */
export function checkResult(sql: string, result: unknown): void {
  const rows = rowsOf(result);
  for (const row of rows) {
    const cells = Array.isArray(row) ? row : row && typeof row === "object" ? Object.values(row) : [row];
    let total = 0;
    for (const c of cells) {
      const b = valueBytes(c);
      total += b;
      seen("value bytes", b, D1_LIMITS.valueBytes, () => `a result value of ${brief(sql)}`);
    }
    seen("row bytes", total, D1_LIMITS.rowBytes, () => `a result row of ${brief(sql)}`);
  }
}

function rowsOf(result: unknown): unknown[] {
  if (result === null || result === undefined) return [];
  if (Array.isArray(result)) return result; // raw(): arrays of cells
  if (typeof result === "object" && "results" in result)
    return ((result as { results?: unknown[] }).results ?? []) as unknown[];
  return [result]; // first(): a row, or first(column): a value
}

/** The D1 binding under D1's statement limits (each statement checked before it runs, and its rows after). */
export function limitedD1(real: D1Database): D1Database {
  return interceptD1(real, {
    single: async (q, run) => {
      checkStatement(q.sql, q.params);
      const out = await run();
      checkResult(q.sql, out);
      return out;
    },
    batch: async (qs, run) => {
      for (const q of qs) checkStatement(q.sql, q.params);
      const out = (await run()) as unknown[];
      for (const [i, r] of out.entries()) checkResult(qs[i]?.sql ?? "?", r);
      return out;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Queue and KV

const messageBytes = (body: unknown) =>
  utf8Bytes(typeof body === "string" ? body : (JSON.stringify(body) ?? "")) + QUEUE_LIMITS.metadataBytes;

/** A queue producer under Queues' message and batch limits. */
export function limitedQueue<T>(real: Queue<T>): Queue<T> {
  return {
    send: async (body: T, opts?: QueueSendOptions) => {
      seen("queue message bytes", messageBytes(body), QUEUE_LIMITS.messageBytes, () => "send()");
      return real.send(body, opts);
    },
    sendBatch: async (msgs: Iterable<MessageSendRequest<T>>, opts?: QueueSendBatchOptions) => {
      const list = [...msgs];
      seen("queue batch", list.length, QUEUE_LIMITS.batchMessages, () => "sendBatch() messages");
      let total = 0;
      for (const m of list) {
        const b = messageBytes(m.body);
        total += b;
        seen("queue message bytes", b, QUEUE_LIMITS.messageBytes, () => "sendBatch()");
      }
      seen(
        "queue batch",
        Math.ceil(total / 1000),
        QUEUE_LIMITS.batchBytes / 1000,
        () => "sendBatch() KB in all",
      );
      return real.sendBatch(list, opts);
    },
  } as Queue<T>;
}

/** Keys the OAuth library writes itself (see limitedKV). */
const LIBRARY_KEY = /^(grant|token|client|transaction):/;

/**
 * A KV namespace under KV's value, key and same-key write-rate limits. `now` gives the time of a
 * write (the tests' own clock: a test that moves time moves the rate window with it).
 */
export function limitedKV(real: KVNamespace, now: () => number = Date.now): KVNamespace {
  const lastWrite = new Map<string, number>();
  const wrote = (key: string) => {
    seen("KV key bytes", utf8Bytes(key), KV_LIMITS.keyBytes, () => key);
    // The same-key rate is held for the keys our code writes; the OAuth library's own records
    // (grant:, token:, client:, transaction:) are written and rewritten by it within one flow.
    if (LIBRARY_KEY.test(key)) return;
    const at = now();
    const before = lastWrite.get(key);
    lastWrite.set(key, at);
    // Counted as writes in the window: 2 when the previous write to the key was under a second ago.
    if (before !== undefined)
      seen(
        "KV writes per second per key",
        at - before < KV_LIMITS.writeIntervalMs ? 2 : 1,
        1,
        () => `${key} (${at - before} ms apart)`,
      );
  };
  return new Proxy(real, {
    get(target, prop) {
      const orig = Reflect.get(target, prop, target);
      if (typeof orig !== "function") return orig;
      if (prop === "put")
        return async (key: string, value: unknown, opts?: unknown) => {
          wrote(key);
          seen("KV value bytes", valueBytes(value), KV_LIMITS.valueBytes, () => key);
          return orig.call(target, key, value, opts);
        };
      // A delete is not held to the same-key rate: the OAuth library deletes a grant or transaction
      // key right after writing it (its one-use consume), and that is the library's own pattern.
      return orig.bind(target);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Per invocation

/** Methods of a binding that reach the service (each one operation); others are local. */
const OPERATIONS: Record<string, Set<string>> = {
  // resumeMultipartUpload is synchronous and no subrequest: the upload's own calls are (below).
  FILES: new Set(["get", "put", "head", "list", "delete", "createMultipartUpload"]),
  OAUTH_KV: new Set(["get", "getWithMetadata", "put", "list", "delete"]),
  JOBS: new Set(["send", "sendBatch"]),
};

/** Durable Object namespaces: each call on one of their stubs (fetch or an RPC method) is one operation. */
const DURABLE_OBJECTS = ["JOB_SLOT"];

export interface Invocation<E> {
  env: E;
  /** D1 statements and binding operations so far. */
  counts: { d1Queries: number; operations: number };
}

/** The largest count any one invocation reached (the report of issue 36). */
const invocationPeaks = { d1Queries: 0, operations: 0 };
export const invocationPeak = () => ({ ...invocationPeaks });

/**
 * The bindings of ONE Worker invocation (a request, a queue batch, a cron run), counting its D1
 * queries and its operations on Cloudflare services against the plan's per-invocation limits.
 */
export function perInvocation<E extends object>(env: E, plan: Plan = "paid"): Invocation<E> {
  const limits = PLAN_LIMITS[plan];
  const counts = { d1Queries: 0, operations: 0 };
  const count = (queries: number, what: string) => {
    counts.d1Queries += queries;
    counts.operations += 1;
    invocationPeaks.d1Queries = Math.max(invocationPeaks.d1Queries, counts.d1Queries);
    invocationPeaks.operations = Math.max(invocationPeaks.operations, counts.operations);
    if (queries)
      seen("D1 queries per invocation", counts.d1Queries, limits.d1Queries, () => `${plan} plan, at ${what}`);
    seen("operations per invocation", counts.operations, limits.operations, () => `${plan} plan, at ${what}`);
  };
  const out = { ...env } as Record<string, unknown>;
  const e = env as Record<string, unknown>;
  if (e.DB) {
    out.DB = interceptD1(e.DB as D1Database, {
      // async: a breach rejects the call's promise, as the runtime's does.
      single: async (q, run) => (count(1, brief(q.sql)), run()),
      // A batch is one query against this limit: D1 names it "queries per Worker invocation (read
      // subrequest limits)", and a batch is one subrequest; its statements are each checked above.
      batch: async (qs, run) => (count(1, `a batch of ${qs.length}`), run()),
      exec: async (sql, run) => (count(1, brief(sql)), run()),
    });
  }
  // An R2 multipart upload's parts, completion and abort are each a subrequest.
  const countedUpload = (up: R2MultipartUpload): R2MultipartUpload =>
    new Proxy(up, {
      get(target, prop) {
        const orig = Reflect.get(target, prop, target);
        if (typeof orig !== "function") return orig;
        return async (...a: unknown[]) => {
          count(0, `FILES upload.${String(prop)}`);
          return orig.apply(target, a);
        };
      },
    });
  for (const [name, ops] of Object.entries(OPERATIONS)) {
    const binding = e[name] as object | undefined;
    if (!binding) continue;
    out[name] = new Proxy(binding, {
      get(target, prop) {
        const orig = Reflect.get(target, prop, target);
        if (typeof orig !== "function") return orig;
        if (prop === "resumeMultipartUpload")
          return (...a: unknown[]) => countedUpload(orig.apply(target, a) as R2MultipartUpload);
        if (!ops.has(String(prop))) return orig.bind(target);
        return async (...a: unknown[]) => {
          count(0, `${name}.${String(prop)}`);
          const res = await orig.apply(target, a);
          return prop === "createMultipartUpload" ? countedUpload(res as R2MultipartUpload) : res;
        };
      },
    });
  }
  for (const name of DURABLE_OBJECTS) {
    const ns = e[name] as object | undefined;
    if (!ns) continue;
    // A stub's every method reaches the object (a subrequest); `then` is no call (an await of the stub).
    const stub = (target: object) =>
      new Proxy(target, {
        get(t, prop) {
          const orig = Reflect.get(t, prop, t);
          if (typeof prop === "symbol" || prop === "then" || typeof orig !== "function") return orig;
          return async (...a: unknown[]) => {
            count(0, `${name}.${prop}`);
            // Reflect.apply: `orig.apply` on an RPC method would be a call of a method "apply".
            return Reflect.apply(orig, t, a);
          };
        },
      });
    out[name] = new Proxy(ns, {
      get(target, prop) {
        const orig = Reflect.get(target, prop, target);
        if (typeof orig !== "function") return orig;
        if (prop !== "get" && prop !== "getByName") return orig.bind(target);
        return (...a: unknown[]) => stub(orig.apply(target, a));
      },
    });
  }
  return { env: out as E, counts };
}

// ---------------------------------------------------------------------------------------------
// The test setup's bindings

interface Limited {
  DB: D1Database;
  JOBS: Queue<unknown>;
  OAUTH_KV?: KVNamespace;
}
const installed = globalThis as { __unlimitedBindings?: Limited };

/** Wraps the env's D1, queue and KV bindings under the limits, once per workerd (the setup calls it per file). */
export function installLimits(env: Limited): void {
  if (installed.__unlimitedBindings) return;
  installed.__unlimitedBindings = { DB: env.DB, JOBS: env.JOBS, OAUTH_KV: env.OAUTH_KV };
  env.DB = limitedD1(env.DB);
  env.JOBS = limitedQueue(env.JOBS);
  if (env.OAUTH_KV) env.OAUTH_KV = limitedKV(env.OAUTH_KV);
}

/** The bindings themselves (a test of the wrappers wraps them afresh). */
export function unlimited(): Limited {
  const b = installed.__unlimitedBindings;
  if (!b) throw new Error("installLimits has not run");
  return b;
}

/** The D1 binding itself, for what takes no wrapper (applyD1Migrations: wrangler applies migrations deployed). */
export const unlimitedDB = (): D1Database => unlimited().DB;
