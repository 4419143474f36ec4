// SPEC.md "Authentication", rules 1-9, as one table: state x credentials x method x path -> status, code.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { revokeTokenById } from "../../src/domains/auth/tokens";
import { isPublicPath } from "../../src/http/auth";
import {
  bearer,
  login,
  PASSWORD,
  plainCtx,
  resetState,
  seedToken,
  sessionCookie,
  setPassword,
  withCookie,
} from "../helpers/auth";
import { call } from "../helpers/http";

type State = "open" | "open+tokens" | "password" | "demo" | "bypass";
type Cred =
  | "none"
  | "basic"
  | "bearer-empty"
  | "unknown"
  | "malformed"
  | "revoked"
  | "read"
  | "write"
  | "session"
  | "forged"
  | "expired";

interface Row {
  rule: number;
  state: State;
  cred: Cred;
  method: string;
  path: string;
  status: number;
  code?: string;
  kind?: string;
}

const UNKNOWN = `fin_${"A".repeat(43)}`;
const memo = { insights_user_memo: "table" };

const ROWS: Row[] = [
  // 1. Public routes need no credentials, even with a password set.
  ...["/api/v1/health", "/openapi.json", "/docs", "/redoc", "/llms.txt"].map(
    (path): Row => ({ rule: 1, state: "password", cred: "none", method: "GET", path, status: 200 }),
  ),
  { rule: 1, state: "password", cred: "none", method: "POST", path: "/api/v1/auth/logout", status: 200 },
  // 2. Any Authorization header is validated: wrong scheme, missing or unknown token -> 401.
  ...(["basic", "bearer-empty", "unknown", "malformed", "revoked"] as Cred[]).flatMap((cred): Row[] => [
    {
      rule: 2,
      state: "password",
      cred,
      method: "GET",
      path: "/api/v1/config",
      status: 401,
      code: "UNAUTHORIZED",
    },
    {
      rule: 2,
      state: "open",
      cred,
      method: "GET",
      path: "/api/v1/config",
      status: 401,
      code: "UNAUTHORIZED",
    },
  ]),
  {
    rule: 2,
    state: "open",
    cred: "unknown",
    method: "GET",
    path: "/api/v1/health",
    status: 401,
    code: "UNAUTHORIZED",
  },
  {
    rule: 2,
    state: "password",
    cred: "read",
    method: "PUT",
    path: "/api/v1/config",
    status: 403,
    code: "FORBIDDEN",
  },
  {
    rule: 2,
    state: "open+tokens",
    cred: "read",
    method: "PUT",
    path: "/api/v1/config",
    status: 403,
    code: "FORBIDDEN",
  },
  // 3. No header: session cookie or TOFU; a password closes anonymous access.
  { rule: 3, state: "open", cred: "none", method: "GET", path: "/api/v1/config", status: 200 },
  { rule: 3, state: "open", cred: "none", method: "PUT", path: "/api/v1/config", status: 200 },
  { rule: 3, state: "open+tokens", cred: "none", method: "GET", path: "/api/v1/config", status: 200 },
  { rule: 3, state: "open+tokens", cred: "none", method: "PUT", path: "/api/v1/config", status: 200 },
  {
    rule: 3,
    state: "password",
    cred: "none",
    method: "GET",
    path: "/api/v1/config",
    status: 401,
    code: "UNAUTHORIZED",
  },
  {
    rule: 3,
    state: "password",
    cred: "none",
    method: "PUT",
    path: "/api/v1/config",
    status: 401,
    code: "UNAUTHORIZED",
  },
  {
    rule: 3,
    state: "password",
    cred: "none",
    method: "GET",
    path: "/api/v1/whoami",
    status: 401,
    code: "UNAUTHORIZED",
  },
  { rule: 3, state: "password", cred: "session", method: "GET", path: "/api/v1/config", status: 200 },
  { rule: 3, state: "password", cred: "session", method: "PUT", path: "/api/v1/config", status: 200 },
  {
    rule: 3,
    state: "password",
    cred: "forged",
    method: "GET",
    path: "/api/v1/config",
    status: 401,
    code: "UNAUTHORIZED",
  },
  {
    rule: 3,
    state: "password",
    cred: "expired",
    method: "GET",
    path: "/api/v1/config",
    status: 401,
    code: "UNAUTHORIZED",
  },
  // 4. Scopes: read is GET only; read+write is everything.
  ...["/api/v1/config", "/api/v1/activity", "/api/v1/whoami", "/api/v1/auth/tokens", "/openapi.json"].map(
    (path): Row => ({ rule: 4, state: "password", cred: "read", method: "GET", path, status: 200 }),
  ),
  {
    rule: 4,
    state: "password",
    cred: "read",
    method: "POST",
    path: "/api/v1/auth/tokens",
    status: 403,
    code: "FORBIDDEN",
  },
  {
    rule: 4,
    state: "password",
    cred: "read",
    method: "DELETE",
    path: "/api/v1/auth/tokens/x",
    status: 403,
    code: "FORBIDDEN",
  },
  {
    rule: 4,
    state: "password",
    cred: "read",
    method: "POST",
    path: "/api/v1/activity/x/revert",
    status: 403,
    code: "FORBIDDEN",
  },
  { rule: 4, state: "password", cred: "write", method: "PUT", path: "/api/v1/config", status: 200 },
  {
    rule: 4,
    state: "password",
    cred: "write",
    method: "POST",
    path: "/api/v1/activity/x/revert",
    status: 404,
    code: "NOT_FOUND",
  },
  // 7. The principal's kind.
  {
    rule: 7,
    state: "password",
    cred: "write",
    method: "GET",
    path: "/api/v1/whoami",
    status: 200,
    kind: "token",
  },
  {
    rule: 7,
    state: "password",
    cred: "read",
    method: "GET",
    path: "/api/v1/whoami",
    status: 200,
    kind: "token",
  },
  {
    rule: 7,
    state: "password",
    cred: "session",
    method: "GET",
    path: "/api/v1/whoami",
    status: 200,
    kind: "session",
  },
  { rule: 7, state: "open", cred: "none", method: "GET", path: "/api/v1/whoami", status: 200, kind: "tofu" },
  {
    rule: 7,
    state: "open+tokens",
    cred: "none",
    method: "GET",
    path: "/api/v1/whoami",
    status: 200,
    kind: "tofu",
  },
  {
    rule: 7,
    state: "bypass",
    cred: "none",
    method: "GET",
    path: "/api/v1/whoami",
    status: 200,
    kind: "dev-bypass",
  },
  { rule: 7, state: "bypass", cred: "none", method: "PUT", path: "/api/v1/config", status: 200 },
  {
    rule: 7,
    state: "bypass",
    cred: "unknown",
    method: "GET",
    path: "/api/v1/whoami",
    status: 401,
    code: "UNAUTHORIZED",
  },
  // 9. The demo accepts and ignores any Authorization header; any write is 405.
  ...(["none", "basic", "unknown", "malformed", "read"] as Cred[]).map(
    (cred): Row => ({ rule: 9, state: "demo", cred, method: "GET", path: "/api/v1/config", status: 200 }),
  ),
  ...(["none", "unknown", "write"] as Cred[]).map(
    (cred): Row => ({ rule: 9, state: "demo", cred, method: "PUT", path: "/api/v1/config", status: 405 }),
  ),
];

interface Arranged {
  headers: Record<Cred, Record<string, string>>;
  env: Record<string, string>;
}

async function arrange(state: State): Promise<Arranged> {
  await resetState();
  const [read, write, revoked] = await Promise.all([seedToken("read"), seedToken("read+write"), seedToken()]);
  await revokeTokenById(plainCtx(), revoked.id);
  const headers: Arranged["headers"] = {
    none: {},
    basic: { authorization: "Basic dXNlcjpwYXNz" },
    "bearer-empty": { authorization: "Bearer" },
    unknown: bearer(UNKNOWN),
    malformed: bearer("fin_short"),
    revoked: bearer(revoked.token),
    read: bearer(read.token),
    write: bearer(write.token),
    session: {},
    forged: {},
    expired: {},
  };
  if (state === "open")
    await env.DB.prepare("DELETE FROM api_tokens WHERE id IN (?, ?)").bind(read.id, write.id).run();
  if (state === "password" || state === "demo" || state === "bypass") {
    const cookie = await setPassword();
    headers.session = withCookie(cookie);
    const [name, value] = cookie.split("=") as [string, string];
    const forgedSig = `${value.slice(0, -4)}${value.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    headers.forged = withCookie(`${name}=${forgedSig}`);
    const old = await login(undefined, new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString());
    headers.expired = withCookie(sessionCookie(old));
  }
  if (state === "bypass") {
    const res = await call("/api/v1/config", {
      method: "PUT",
      body: { auth_bypass_for_dev: true },
      headers: headers.session,
    });
    expect(res.status).toBe(200);
  }
  return { headers, env: state === "demo" ? { DEMO_MODE: "true" } : {} };
}

const STATES: State[] = ["open", "open+tokens", "password", "bypass", "demo"];

describe.each(STATES)("auth rules in state %s", (state) => {
  let arranged: Arranged;
  beforeAll(async () => {
    arranged = await arrange(state);
  });

  const rows = ROWS.filter((r) => r.state === state);
  it.each(rows)("rule $rule: $cred $method $path -> $status", async (row) => {
    const res = await call(row.path, {
      method: row.method,
      headers: arranged.headers[row.cred],
      body: row.method === "PUT" ? memo : undefined,
      env: arranged.env,
    });
    expect(res.status, res.text).toBe(row.status);
    if (row.code) {
      expect(res.body).toMatchObject({ code: row.code, details: null });
      expect(typeof res.body.error).toBe("string");
    }
    if (row.kind) expect(res.body.kind).toBe(row.kind);
    if (row.status === 401) expect(res.headers.get("www-authenticate")).toContain("Bearer");
  });
});

describe("every route in the app's own OpenAPI document", () => {
  let read: string;
  let ops: { method: string; path: string; operationId: string }[];

  beforeAll(async () => {
    await resetState();
    read = (await seedToken("read")).token;
    await setPassword();
    const doc = await call("/openapi.json");
    ops = Object.entries(doc.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      ([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({
          method: method.toUpperCase(),
          path: path.replaceAll(/\{[^}]+\}/g, "x"),
          operationId: op.operationId,
        })),
    );
    expect(ops.length).toBeGreaterThan(5);
  });

  it("refuses a read token on every write route (403 FORBIDDEN)", async () => {
    const writes = ops.filter((o) => o.method !== "GET" && o.method !== "HEAD");
    expect(writes.map((w) => w.operationId)).toContain("putAppConfig");
    for (const op of writes) {
      const res = await call(op.path, { method: op.method, headers: bearer(read), body: {} });
      expect([op.operationId, res.status, res.body.code]).toEqual([op.operationId, 403, "FORBIDDEN"]);
    }
  });

  it("refuses anonymous callers on every non-public route once a password is set (401)", async () => {
    for (const op of ops.filter((o) => !isPublicPath(o.path))) {
      const res = await call(op.path, { method: op.method, body: op.method === "GET" ? undefined : {} });
      expect([op.operationId, res.status, res.body.code]).toEqual([op.operationId, 401, "UNAUTHORIZED"]);
    }
  });
});

describe("auth_bypass_for_dev only on loopback", () => {
  it("gives dev-bypass for localhost, but a deployed hostname still needs credentials", async () => {
    await resetState();
    const cookie = await setPassword();
    await call("/api/v1/config", {
      method: "PUT",
      body: { auth_bypass_for_dev: true },
      headers: withCookie(cookie),
    });
    const local = await call("/api/v1/whoami");
    expect(local.body.kind).toBe("dev-bypass");
    expect((await call("/api/v1/whoami", { origin: "http://127.0.0.1:8787" })).body.kind).toBe("dev-bypass");
    const remote = await call("/api/v1/whoami", { origin: "https://journal.example.com" });
    expect(remote.status).toBe(401);
  });
});

describe("trust on first use is for loopback only", () => {
  const REMOTE = "https://journal.example.com";

  it("a deployed (non-loopback) journal with no password asks for a setup token instead of trusting anyone", async () => {
    await resetState();
    const res = await call("/api/v1/config", { origin: REMOTE });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "UNAUTHORIZED", details: { setup_required: true } });
    expect(res.body.error).toMatch(/npm run token -- issue --remote/);
    expectAnon(
      await call("/api/v1/auth/set-password", {
        origin: REMOTE,
        method: "POST",
        body: { password: "stranger-danger" },
      }),
    );
    // Public routes stay public; loopback stays trust-on-first-use (SPEC rule 3).
    expect((await call("/api/v1/health", { origin: REMOTE })).status).toBe(200);
    expect((await call("/api/v1/config")).status).toBe(200);
  });

  it("the setup token sets the first password, and the cookie then works remotely", async () => {
    await resetState();
    const { token } = await seedToken("read+write", "setup");
    const set = await call("/api/v1/auth/set-password", {
      origin: REMOTE,
      method: "POST",
      body: { password: PASSWORD },
      headers: bearer(token),
    });
    expect(set.status).toBe(200);
    const cookie = sessionCookie(set);
    expect((await call("/api/v1/config", { origin: REMOTE, headers: withCookie(cookie) })).status).toBe(200);
    expect((await call("/api/v1/config", { origin: REMOTE })).status).toBe(401);
  });

  it("ALLOW_REMOTE_TOFU=true restores the open behaviour", async () => {
    await resetState();
    const res = await call("/api/v1/whoami", { origin: REMOTE, env: { ALLOW_REMOTE_TOFU: "true" } });
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe("tofu");
  });
});

function expectAnon(res: { status: number; body: { details?: unknown } }) {
  expect(res.status).toBe(401);
  expect(res.body.details).toEqual({ setup_required: true });
}
