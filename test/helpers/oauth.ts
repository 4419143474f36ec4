/**
 * Driving the OAuth flow through the real Worker (src/index.ts: the provider in front of the app):
 * an in-memory client for the MCP SDK's `auth()`, a fetch into the exported Worker, and the
 * consent step done as a browser does it (session cookie, the page's hidden handle, the form POST).
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";
import type { Env } from "../../src/env";

export const ORIGIN = "http://localhost";
export const MCP_URL = `${ORIGIN}/mcp`;

/** A fetch answered by the exported Worker (its waitUntil work finished before returning). */
export async function workerFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const req = new Request(input, init);
  const ctx = createExecutionContext();
  const res = await worker.fetch!(req as Request<unknown, IncomingRequestCfProperties>, env as Env, ctx);
  const body = res.status === 204 || res.status === 302 ? null : await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(body, { status: res.status, headers: res.headers });
}

/** An MCP client's OAuth state, in memory. */
export class MemoryClient implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  constructor(
    readonly redirect = "http://127.0.0.1:33418/callback",
    readonly name = "Test Assistant",
  ) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return "st-123";
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const pair = (line: string) => line.split(";")[0]!;

/** GET the consent page with the session cookie: the page, its handle and the consent cookie. */
export async function openConsent(url: URL | string, sessionCookie: string | null) {
  const res = await workerFetch(url, { headers: sessionCookie ? { cookie: sessionCookie } : {} });
  const html = await res.text();
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? null;
  const consentCookies = res.headers.getSetCookie().map(pair).join("; ");
  return { res, html, handle, consentCookies };
}

/** POST the consent form as the browser would (same-origin page, url-encoded form). */
export async function answerConsent(
  url: URL | string,
  opts: {
    cookie: string;
    handle: string;
    decision: "approve" | "deny";
    access?: "read" | "write";
    origin?: string;
  },
) {
  const form = new URLSearchParams({
    handle: opts.handle,
    decision: opts.decision,
    access: opts.access ?? "read",
  });
  return workerFetch(url, {
    method: "POST",
    redirect: "manual",
    headers: {
      cookie: opts.cookie,
      origin: opts.origin ?? ORIGIN,
      "sec-fetch-site": opts.origin && opts.origin !== ORIGIN ? "cross-site" : "same-origin",
      "content-type": "application/x-www-form-urlencoded",
    },
    body: form.toString(),
  });
}
