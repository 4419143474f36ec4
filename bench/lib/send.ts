/**
 * The sweeps' request: one call through the app as a warm isolate gets it, its body read before the
 * counter's mark is set (trips after the mark are waitUntil work the response did not wait for),
 * then the execution context drained; its D1 queries and binding operations are counted against the
 * plan's per-invocation limits. The answer's text, JSON (null when not JSON) and headers.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import type { createApp } from "../../src/app";
import type { Env } from "../../src/env";
import { perInvocation } from "../../test/helpers/limits";
import type { CountingD1 } from "./d1-count";

export interface BenchRequest {
  method: string;
  path: string;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** The bindings for this request (default: the counted bench env), e.g. the fake model's address. */
  env?: Env;
}

export function benchSender(app: ReturnType<typeof createApp>, counter: CountingD1, benchEnv: Env) {
  return async (r: BenchRequest) => {
    const headers: Record<string, string> = { ...(r.headers ?? {}) };
    if (r.body !== undefined) headers["content-type"] = "application/json";
    const req = new Request(`http://localhost${r.path}`, {
      method: r.method,
      headers,
      body: r.form ?? (r.body === undefined ? undefined : JSON.stringify(r.body)),
    });
    const ctx = createExecutionContext();
    // One invocation under the plan's per-invocation limits (test/helpers/limits.ts).
    const res = await app.fetch(req, perInvocation(r.env ?? benchEnv).env, ctx);
    const text = await res.text();
    counter.settle();
    await waitOnExecutionContext(ctx);
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, text, json, headers: res.headers };
  };
}
