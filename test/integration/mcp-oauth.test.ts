/**
 * OAuth 2.1 for /mcp, end to end through the exported Worker (the provider in front of the app),
 * with the official MCP SDK client's OAuth support: discovery from a 401, registration, consent
 * (session cookie + the Allow form), code exchange with PKCE, tool calls per scope, refresh,
 * revocation; and the refusals.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  auth,
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  extractWWWAuthenticateParams,
  registerClient,
  startAuthorization,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { login, resetState, seedToken, sessionCookie, setPassword } from "../helpers/auth";
import { call } from "../helpers/http";
import { answerConsent, MCP_URL, MemoryClient, ORIGIN, openConsent, workerFetch } from "../helpers/oauth";
import { clearTransactions, seedTx } from "../helpers/seed";

let session: string;
let txId: string;

beforeAll(async () => {
  await resetState();
  session = await setPassword();
});

beforeEach(async () => {
  // The hour's registration count starts afresh for each test (the bound has its own test).
  for (const k of (await env.OAUTH_KV!.list({ prefix: "fj-oauth-reg:" })).keys)
    await env.OAUTH_KV!.delete(k.name);
  await clearTransactions();
  await env.DB.prepare("DELETE FROM activity_log").run();
  txId = await seedTx({ DateFileName: "2024.10.03_09.00_a.eml", Company: "Blue Bottle", Amount: 12.5 });
});

const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: {} };
const postMcp = (headers: Record<string, string> = {}) =>
  workerFetch(MCP_URL, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(init),
  });

/** Discovery from the 401, registration and the consent page, then the code from the redirect. */
async function authorize(client: MemoryClient, access: "read" | "write") {
  const challenge = await postMcp();
  expect(challenge.status).toBe(401);
  const { resourceMetadataUrl } = extractWWWAuthenticateParams(challenge);
  expect(resourceMetadataUrl?.href).toBe(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`);
  const scope = access === "write" ? "read write" : "read";
  const first = await auth(client, { serverUrl: MCP_URL, resourceMetadataUrl, scope, fetchFn: workerFetch });
  expect(first).toBe("REDIRECT");
  const page = await openConsent(client.authorizationUrl!, session);
  expect(page.res.status, page.html).toBe(200);
  expect(page.handle).toBeTruthy();
  const answer = await answerConsent(client.authorizationUrl!, {
    cookie: `${session}; ${page.consentCookies}`,
    handle: page.handle!,
    decision: "approve",
    access,
  });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get("location")!);
  expect(`${back.origin}${back.pathname}`).toBe(client.redirect);
  expect(back.searchParams.get("state")).toBe("st-123");
  return { code: back.searchParams.get("code")!, resourceMetadataUrl, page };
}

async function connected(client: MemoryClient, access: "read" | "write") {
  const { code, resourceMetadataUrl, page } = await authorize(client, access);
  const done = await auth(client, {
    serverUrl: MCP_URL,
    authorizationCode: code,
    resourceMetadataUrl,
    fetchFn: workerFetch,
  });
  expect(done).toBe("AUTHORIZED");
  return { code, page };
}

async function mcpWith(accessToken: string) {
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    fetch: workerFetch,
    requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
  });
  const c = new Client({ name: "oauth-test", version: "1.0.0" });
  await c.connect(transport);
  return c;
}

describe("discovery", () => {
  it("a 401 from /mcp points at RFC 9728 metadata, which names this server's RFC 8414 metadata", async () => {
    const res = await postMcp();
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(
      /^Bearer .*resource_metadata="http:\/\/localhost\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    const prm = await (await workerFetch(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`)).json<any>();
    expect(prm.resource).toBe(MCP_URL);
    expect(prm.authorization_servers).toEqual([ORIGIN]);
    const as = await discoverAuthorizationServerMetadata(ORIGIN, { fetchFn: workerFetch });
    expect(as).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["read", "write"],
    });
    expect((as as Record<string, unknown>).revocation_endpoint).toBe(`${ORIGIN}/oauth/token`);
  });

  it("fin_ tokens keep working on /mcp; an unknown fin_ token is a 401 with the pointer", async () => {
    const { token } = await seedToken("read", "cli");
    const c = await mcpWith(token);
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).toContain("get_transaction");
    expect(names).not.toContain("set_comment");
    const bad = await postMcp({ authorization: "Bearer fin_not_a_token" });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain("resource_metadata=");
  });
});

describe("the whole flow", () => {
  it("write scope: tools write under the app's name in the ledger, undoable; refresh rotates; revoke → 401", async () => {
    const client = new MemoryClient("https://assistant.example/oauth/callback", "Chat <b>Helper</b>");
    const { page } = await connected(client, "write");
    expect(page.html).toContain("Chat &#60;b&#62;Helper&#60;/b&#62;");
    expect(page.html).not.toContain("<b>Helper");
    expect(page.html).toContain("assistant.example");
    expect(page.html).not.toContain('data-testid="loopback-warning"');
    expect(page.res.headers.get("x-frame-options")).toBe("DENY");
    expect(page.res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    // With "no-referrer" the browser would send `Origin: null` on the Allow POST (refused below).
    expect(page.res.headers.get("referrer-policy")).toBe("same-origin");
    const tokens = client.saved!;
    expect(tokens.scope?.split(" ").sort()).toEqual(["read", "write"]);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.expires_in).toBeLessThanOrEqual(3600);

    const c = await mcpWith(tokens.access_token);
    const out = await c.callTool({ name: "set_comment", arguments: { tx_id: txId, comment: "via app" } });
    expect(out.isError, JSON.stringify(out.content)).toBeFalsy();
    const { token: reader } = await seedToken("read", "reader");
    const ledger = await call("/api/v1/activity?operation=mcp.set_comment", {
      headers: { authorization: `Bearer ${reader}` },
    });
    const entry = ledger.body.entries[0];
    expect(entry).toMatchObject({
      principal_kind: "oauth",
      principal_label: "Chat <b>Helper</b>",
      reversible: true,
    });
    const undo = await call(`/api/v1/activity/${entry.id}/revert`, {
      method: "POST",
      headers: { cookie: session, origin: ORIGIN },
    });
    expect(undo.status, undo.text).toBe(200);

    // Refresh: a new access token and a rotated refresh token.
    const before = client.saved!;
    client.saved = { ...before, access_token: "" } as never;
    const as = (await discoverAuthorizationServerMetadata(ORIGIN, { fetchFn: workerFetch }))!;
    const refreshed = await workerFetch(as.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: before.refresh_token!,
        client_id: client.info!.client_id,
      }),
    });
    expect(refreshed.status).toBe(200);
    const next = await refreshed.json<any>();
    expect(next.access_token).not.toBe(before.access_token);
    expect(next.refresh_token).not.toBe(before.refresh_token);
    expect((await postMcp({ authorization: `Bearer ${next.access_token}` })).status).toBe(200);

    // Revocation (RFC 7009) of the refresh token ends the grant: the access tokens fail at once.
    const revoke = await workerFetch((as as Record<string, unknown>).revocation_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: next.refresh_token, client_id: client.info!.client_id }),
    });
    expect(revoke.status).toBe(200);
    expect((await postMcp({ authorization: `Bearer ${next.access_token}` })).status).toBe(401);
  });

  it("read scope: reads work, a write tool is refused; loopback redirect gets the warning", async () => {
    const client = new MemoryClient();
    const { page } = await connected(client, "read");
    expect(page.html).toContain('data-testid="loopback-warning"');
    expect(page.html).toContain("127.0.0.1");
    expect(client.saved!.scope).toBe("read");
    const c = await mcpWith(client.saved!.access_token);
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).toContain("get_transaction");
    expect(names).not.toContain("set_comment");
    const got = await c.callTool({ name: "get_transaction", arguments: { tx_id: txId } });
    expect(got.isError).toBeFalsy();
    const refused = await c.callTool({ name: "set_comment", arguments: { tx_id: txId, comment: "no" } });
    expect(refused.isError).toBe(true);
    const said = (refused.content as { text: string }[])[0]!.text;
    expect(said).toContain("read and change your journal");
    expect(JSON.parse(said)).toMatchObject({ code: "FORBIDDEN" });
    const row = await env.DB.prepare("SELECT count(*) AS n FROM activity_log").first<{ n: number }>();
    expect(row!.n).toBe(0);
  });

  it("Deny sends the app back with access_denied and no code", async () => {
    const client = new MemoryClient();
    await auth(client, { serverUrl: MCP_URL, scope: "read", fetchFn: workerFetch });
    const page = await openConsent(client.authorizationUrl!, session);
    const res = await answerConsent(client.authorizationUrl!, {
      cookie: `${session}; ${page.consentCookies}`,
      handle: page.handle!,
      decision: "deny",
    });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("code")).toBeNull();
  });
});

describe("refusals", () => {
  /** A registered client and a fresh authorization URL with its PKCE verifier. */
  async function started(scope = "read", redirect = "http://127.0.0.1:33418/callback") {
    const as = (await discoverAuthorizationServerMetadata(ORIGIN, { fetchFn: workerFetch }))!;
    const info = await registerClient(ORIGIN, {
      metadata: as,
      clientMetadata: new MemoryClient(redirect).clientMetadata,
      fetchFn: workerFetch,
    });
    const { authorizationUrl, codeVerifier } = await startAuthorization(ORIGIN, {
      metadata: as,
      clientInformation: info,
      redirectUrl: redirect,
      scope,
      state: "s",
      resource: new URL(MCP_URL),
    });
    return { as, info, authorizationUrl, codeVerifier, redirect };
  }

  async function codeFor(s: Awaited<ReturnType<typeof started>>) {
    const page = await openConsent(s.authorizationUrl, session);
    const res = await answerConsent(s.authorizationUrl, {
      cookie: `${session}; ${page.consentCookies}`,
      handle: page.handle!,
      decision: "approve",
    });
    return new URL(res.headers.get("location")!).searchParams.get("code")!;
  }

  const exchange = (s: Awaited<ReturnType<typeof started>>, code: string, codeVerifier = s.codeVerifier) =>
    exchangeAuthorization(ORIGIN, {
      metadata: s.as,
      clientInformation: s.info,
      authorizationCode: code,
      codeVerifier,
      redirectUri: s.redirect,
      resource: new URL(MCP_URL),
      fetchFn: workerFetch,
    });

  it("a wrong PKCE verifier is refused", async () => {
    const s = await started();
    const code = await codeFor(s);
    await expect(exchange(s, code, "x".repeat(64))).rejects.toThrow(/invalid_grant|PKCE|verifier/i);
  });

  it("a code works once", async () => {
    const s = await started();
    const code = await codeFor(s);
    expect((await exchange(s, code)).access_token).toBeTruthy();
    await expect(exchange(s, code)).rejects.toThrow();
  });

  it("a redirect URI that was not registered gets an error page, never a redirect", async () => {
    const s = await started();
    const url = new URL(s.authorizationUrl);
    url.searchParams.set("redirect_uri", "https://evil.example/cb");
    const page = await openConsent(url, session);
    expect(page.res.status).toBe(400);
    expect(page.res.headers.get("location")).toBeNull();
    expect(page.handle).toBeNull();
  });

  it("a scope the journal does not offer is said on the page, never redirected to the app (signed in or not)", async () => {
    const s = await started("read admin", "https://open-redirect.example/cb");
    const page = await openConsent(s.authorizationUrl, session);
    expect(page.res.status).toBe(400);
    expect(page.res.headers.get("location")).toBeNull();
    expect(page.html).toContain("does not offer");
    expect(page.handle).toBeNull();
    // An anonymous visitor goes to this journal's sign-in, never to the registered URI.
    const anon = await openConsent(s.authorizationUrl, null);
    expect(anon.res.status).toBe(302);
    const to = new URL(anon.res.headers.get("location")!, ORIGIN);
    expect(to.origin).toBe(ORIGIN);
    expect(to.pathname).toBe("/");
    // Without PKCE: the same, a page.
    const url = new URL((await started("read", "https://open-redirect.example/cb")).authorizationUrl);
    url.searchParams.delete("code_challenge");
    url.searchParams.delete("code_challenge_method");
    const noPkce = await openConsent(url, session);
    expect(noPkce.res.headers.get("location")).toBeNull();
    expect(noPkce.res.status).toBe(400);
  });

  it("Allow after the session ended is refused: no code, no token", async () => {
    const mine = sessionCookie(await login());
    const s = await started("read write");
    const page = await openConsent(s.authorizationUrl, mine);
    expect(page.res.status).toBe(200);
    const out = await call("/api/v1/auth/logout", {
      method: "POST",
      headers: { cookie: mine, origin: ORIGIN },
    });
    expect(out.status, out.text).toBe(200);
    const res = await answerConsent(s.authorizationUrl, {
      cookie: `${mine}; ${page.consentCookies}`,
      handle: page.handle!,
      decision: "approve",
      access: "write",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("location")).toBeNull();
  });

  it("a rotated refresh token used again ends the grant: the new tokens stop working too", async () => {
    const client = new MemoryClient("https://rotate.example/cb", "Rotating App");
    await connected(client, "read");
    const first = client.saved!;
    const as = (await discoverAuthorizationServerMetadata(ORIGIN, { fetchFn: workerFetch }))!;
    const refresh = (token: string) =>
      workerFetch(as.token_endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: token,
          client_id: client.info!.client_id,
        }),
      });
    const rotated = await refresh(first.refresh_token!);
    expect(rotated.status).toBe(200);
    const second = await rotated.json<any>();
    expect((await postMcp({ authorization: `Bearer ${second.access_token}` })).status).toBe(200);
    // The first refresh token again: reuse. Refused, and the whole grant is gone.
    const reused = await refresh(first.refresh_token!);
    expect(reused.status).toBe(400);
    expect((await reused.json<any>()).error).toBe("invalid_grant");
    expect((await refresh(second.refresh_token)).status).toBe(400);
    expect((await postMcp({ authorization: `Bearer ${second.access_token}` })).status).toBe(401);
    const apps = (await call("/api/v1/connected-apps", { headers: { cookie: session } })).body.apps;
    expect(apps.map((a: any) => a.name)).not.toContain("Rotating App");
  });

  it("an app's name is shown with control and bidi characters neutralised", async () => {
    const name = "Bank\u202Eexe.txt\u2066 Helper\u0007\u200F";
    const client = new MemoryClient("https://names.example/cb", name);
    await auth(client, { serverUrl: MCP_URL, scope: "read", fetchFn: workerFetch });
    const page = await openConsent(client.authorizationUrl!, session);
    expect(page.res.status).toBe(200);
    const shown = /data-testid="client-name">([^<]*)</.exec(page.html)![1]!;
    expect(shown).toBe("Bank\uFFFDexe.txt\uFFFD Helper\uFFFD\uFFFD");
    expect(page.html).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u0007]/);
  });

  it("registration refuses a plain-http non-loopback redirect URI", async () => {
    const res = await workerFetch(`${ORIGIN}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "x",
        redirect_uris: ["http://evil.example/cb"],
        token_endpoint_auth_method: "none",
      }),
    });
    expect(res.status).toBe(400);
  });

  it("the consent POST from another origin is refused and issues no code", async () => {
    const s = await started();
    const page = await openConsent(s.authorizationUrl, session);
    const res = await answerConsent(s.authorizationUrl, {
      cookie: `${session}; ${page.consentCookies}`,
      handle: page.handle!,
      decision: "approve",
      origin: "https://evil.example",
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("location")).toBeNull();
    // Without Origin, Sec-Fetch-Site must say same-origin: a cross-site one is refused as well.
    const noOrigin = await workerFetch(s.authorizationUrl, {
      method: "POST",
      headers: {
        cookie: `${session}; ${page.consentCookies}`,
        "sec-fetch-site": "cross-site",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ handle: page.handle!, decision: "approve" }).toString(),
    });
    expect(noOrigin.status).toBe(403);
    const nullOrigin = await answerConsent(s.authorizationUrl, {
      cookie: `${session}; ${page.consentCookies}`,
      handle: page.handle!,
      decision: "approve",
      origin: "null",
    });
    expect(nullOrigin.status).toBe(403);
    const huge = await workerFetch(s.authorizationUrl, {
      method: "POST",
      headers: {
        cookie: `${session}; ${page.consentCookies}`,
        origin: ORIGIN,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        handle: page.handle!,
        decision: "approve",
        pad: "x".repeat(10_000),
      }).toString(),
    });
    expect(huge.status).toBe(413);
    // The handle was not spent by the refusals: the real page's answer still goes through.
    const ok = await answerConsent(s.authorizationUrl, {
      cookie: `${session}; ${page.consentCookies}`,
      handle: page.handle!,
      decision: "approve",
    });
    expect(new URL(ok.headers.get("location")!).searchParams.get("code")).toBeTruthy();
  });

  it("signed out: the consent page sends the browser to the dashboard's sign-in and back", async () => {
    const s = await started();
    const page = await openConsent(s.authorizationUrl, null);
    expect(page.res.status).toBe(302);
    const to = new URL(page.res.headers.get("location")!, ORIGIN);
    expect(to.pathname).toBe("/");
    expect(to.searchParams.get("next")).toBe(s.authorizationUrl.pathname + s.authorizationUrl.search);
  });
  it("a journal without a password shows 'set a password first' (no sign-in loop)", async () => {
    const s = await started();
    await resetState();
    try {
      const page = await openConsent(s.authorizationUrl, null);
      expect(page.res.status).toBe(403);
      expect(page.html).toContain("Set a password first");
      expect(page.handle).toBeNull();
    } finally {
      session = await setPassword();
    }
  });
});

describe("the library's own answers and registration bounds", () => {
  const register = (body: unknown, headers: Record<string, string> = {}) =>
    workerFetch(`${ORIGIN}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" || body instanceof ReadableStream ? body : JSON.stringify(body),
    });
  const metadata = (name = "Bounded App") => ({
    client_name: name,
    redirect_uris: ["https://bounded.example/cb"],
    token_endpoint_auth_method: "none",
  });

  it("discovery, token, registration and the /mcp 401 carry nosniff, a CSP and frame refusal", async () => {
    const answers = {
      as: await workerFetch(`${ORIGIN}/.well-known/oauth-authorization-server`),
      prm: await workerFetch(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`),
      token: await workerFetch(`${ORIGIN}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=refresh_token&refresh_token=a:b:c&client_id=nobody",
      }),
      registered: await register(metadata()),
      badRegistration: await register("{"),
      mcp401: await postMcp(),
    };
    expect(answers.registered.status).toBe(201);
    for (const [what, res] of Object.entries(answers)) {
      expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
      expect(res.headers.get("x-frame-options"), what).toBe("DENY");
      expect(res.headers.get("content-security-policy"), what).toContain("frame-ancestors 'none'");
      expect(res.headers.get("referrer-policy"), what).toBe("no-referrer");
    }
  });

  it("registration is bounded: body size, registrations per hour, clients kept", async () => {
    const big = await register({ ...metadata(), client_name: "x".repeat(9000) });
    expect(big.status).toBe(413);
    const chunked = await register(
      new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(JSON.stringify({ ...metadata(), pad: "y".repeat(20_000) })));
          c.close();
        },
      }),
    );
    expect(chunked.status).toBe(413);
    // 20 in an hour; the 21st waits for the next hour.
    let last = 0;
    for (let i = 0; i < 21; i++) last = (await register(metadata(`App ${i}`))).status;
    expect(last).toBe(429);
    for (const k of (await env.OAUTH_KV!.list({ prefix: "fj-oauth-reg:" })).keys)
      await env.OAUTH_KV!.delete(k.name);
    // At 100 registered clients, none more.
    const have = (await env.OAUTH_KV!.list({ prefix: "client:" })).keys.length;
    const fillers = Array.from({ length: Math.max(0, 100 - have) }, (_, i) => `client:filler-${i}`);
    await Promise.all(fillers.map((k) => env.OAUTH_KV!.put(k, "{}")));
    try {
      const full = await register(metadata("One Too Many"));
      expect(full.status).toBe(429);
      expect((await full.json<any>()).error_description).toContain("registered apps");
    } finally {
      await Promise.all(fillers.map((k) => env.OAUTH_KV!.delete(k)));
    }
    expect((await register(metadata("Room Again"))).status).toBe(201);
  });
});

describe("Settings → Connected apps (API)", () => {
  it("lists each app with scope, connection and last use; Disconnect revokes at once and is in the ledger", async () => {
    const client = new MemoryClient("https://desk.example/cb", "Desk Assistant");
    await connected(client, "write");
    const before = await call("/api/v1/connected-apps", { headers: { cookie: session } });
    expect(before.status).toBe(200);
    const app = before.body.apps.find((a: any) => a.name === "Desk Assistant");
    expect(app).toMatchObject({ scope: "read+write", client_id: client.info!.client_id, last_used_at: null });
    expect(Date.now() - Date.parse(app.connected_at)).toBeLessThan(60_000);

    expect((await postMcp({ authorization: `Bearer ${client.saved!.access_token}` })).status).toBe(200);
    const used = (await call("/api/v1/connected-apps", { headers: { cookie: session } })).body.apps;
    expect(used.find((a: any) => a.id === app.id).last_used_at).not.toBeNull();

    const foreign = await call(`/api/v1/connected-apps/${app.id}`, {
      method: "DELETE",
      headers: { cookie: session, origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    const gone = await call(`/api/v1/connected-apps/${app.id}`, {
      method: "DELETE",
      headers: { cookie: session, origin: ORIGIN },
    });
    expect(gone.status, gone.text).toBe(200);
    expect((await postMcp({ authorization: `Bearer ${client.saved!.access_token}` })).status).toBe(401);
    const after = (await call("/api/v1/connected-apps", { headers: { cookie: session } })).body.apps;
    expect(after.map((a: any) => a.id)).not.toContain(app.id);
    const again = await call(`/api/v1/connected-apps/${app.id}`, {
      method: "DELETE",
      headers: { cookie: session, origin: ORIGIN },
    });
    expect(again.status).toBe(404);
    const ledger = await call("/api/v1/activity?operation=disconnectConnectedApp", {
      headers: { cookie: session },
    });
    expect(ledger.body.entries[0]).toMatchObject({ resource_id: app.id });
    expect(ledger.body.entries[0].summary).toContain("Desk Assistant");
  });
});
