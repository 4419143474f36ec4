import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { type AppOptions, createApp } from "../../src/app";
import type { Env } from "../../src/env";
import { fixedClock } from "../../src/lib/clock";
import { type Invocation, perInvocation } from "./limits";
import { checkResponse } from "./response-contract";

export interface CallOptions {
  method?: string;
  body?: unknown;
  rawBody?: BodyInit;
  headers?: Record<string, string>;
  env?: Partial<Env>;
  now?: string;
  /** Scheme and host the request is addressed to (default http://localhost). */
  origin?: string;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  /** The invocation's D1 queries and binding operations (./limits.ts). */
  counts: Invocation<Env>["counts"];
}

/**
 * Calls the Worker's Hono app in-process with the real bindings, an optional clock and env overrides.
 * Every 2xx answer is checked against its operation's published response schema
 * (./response-contract.ts): a broken shape fails the test that made the call.
 */
export async function call<T = any>(path: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const deps: AppOptions = opts.now ? { clock: fixedClock(opts.now) } : {};
  const app = createApp(deps);
  const headers = new Headers(opts.headers ?? {});
  let body: BodyInit | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const req = new Request(`${opts.origin ?? "http://localhost"}${path}`, {
    method: opts.method ?? "GET",
    headers,
    body,
  });
  const ctx = createExecutionContext();
  // One invocation: its D1 queries and binding operations counted against the plan (./limits.ts).
  const inv = perInvocation({ ...env, ...(opts.env ?? {}) } as Env);
  const res = await app.fetch(req, inv.env, ctx);
  // Read the body first (as a real client would): a streamed body is produced by waitUntil work.
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  checkResponse(app, req.method, new URL(req.url), { status: res.status, headers: res.headers, text });
  return { status: res.status, headers: res.headers, body: parsed as T, text, counts: inv.counts };
}

/** Asserts the error envelope shape and returns it. */
export function expectEnvelope(res: CallResult, status: number, code: string) {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  const b = res.body as { error: unknown; code: unknown; details: unknown };
  if (typeof b.error !== "string" || b.code !== code || !("details" in b)) {
    throw new Error(`bad envelope (want code ${code}): ${res.text}`);
  }
  return b as { error: string; code: string; details: any };
}
