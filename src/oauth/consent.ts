/**
 * GET/POST /oauth/authorize: the owner's consent (docs: consent-page.md of the library). The owner's
 * dashboard session is required (signed out → the dashboard's sign-in, then back here); the page
 * says which app asks, where access is sent and what it may do; the Allow/Deny POST must come from
 * this journal's own page (Origin / Sec-Fetch-Site) and carry the library's browser-bound handle.
 */
import { AuthorizationError, CimdFetchError, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { requestBrowserAuth } from "../domains/auth/request";
import { sessionCookieValues } from "../domains/auth/rules";
import type { Env } from "../env";
import { OAUTH_SCOPES, type McpProps, ownerId } from "../domains/connected-apps/oauth-config";
import { readCapped } from "./guard";
import { plainName } from "../domains/connected-apps/grant";
import { consentPage, messagePage, pageHeaders } from "./page";

const html = (status: number, body: string, base?: Headers) =>
  new Response(body, { status, headers: pageHeaders(base) });

const redirect = (location: string, base?: Headers) => {
  const h = new Headers(base);
  h.set("Location", location);
  h.set("Cache-Control", "no-store");
  return new Response(null, { status: 302, headers: h });
};

/** "session" (the owner signed in with the password), "signed-out", or "no-password" yet. */
async function signedIn(req: Request, env: Env): Promise<"session" | "signed-out" | "no-password"> {
  const read = await requestBrowserAuth(env, sessionCookieValues(req.headers.get("cookie")), new Date());
  if (read.session) return "session";
  return read.auth.passwordSet ? "signed-out" : "no-password";
}

const NO_PASSWORD = messagePage(
  "Set a password first",
  "Apps connect only to a journal protected by a password. Set one in the journal (Settings → Account), then connect the app again.",
);

/**
 * The Allow/Deny POST must come from this journal's own page: the browser's Origin (sent with every
 * form POST) equals ours, or, without one, Sec-Fetch-Site says same-origin. Stricter than the API's
 * rule: no CORS origin, and a request with neither header (not a browser page) is refused too.
 */
function fromThisPage(req: Request): boolean {
  const origin = req.headers.get("origin");
  if (origin !== null) return origin.trim().toLowerCase() === new URL(req.url).origin.toLowerCase();
  return req.headers.get("sec-fetch-site") === "same-origin";
}

/** The form is a handle and two words: anything bigger (or of unknown size) is not it. */
const MAX_FORM_BYTES = 4096;

/** The url-encoded body, read up to MAX_FORM_BYTES (null beyond: never buffered whole). */
async function readForm(req: Request): Promise<URLSearchParams | null> {
  const body = await readCapped(req, MAX_FORM_BYTES);
  return body && new URLSearchParams(new TextDecoder().decode(body));
}

const known = (s: string) => (OAUTH_SCOPES as readonly string[]).includes(s);

/** An error shown on this page: nothing is sent to the app (its URI is not followed). */
const refusal = (what: string) =>
  html(400, messagePage("This connection cannot continue", `${what} Start connecting again from the app.`));

async function show(req: Request, env: Env, oauth: OAuthHelpers): Promise<Response> {
  // The client and its exact redirect URI are validated here (errors: a page, never a redirect).
  const request = await oauth.parseAuthRequest(req);
  // The owner first: a visitor without the session is sent to this journal's sign-in, never to
  // the app's URI (an open redirect for anyone who registers a client).
  const who = await signedIn(req, env);
  if (who === "no-password") return html(403, NO_PASSWORD);
  if (who === "signed-out") {
    const url = new URL(req.url);
    return redirect(`/?next=${encodeURIComponent(url.pathname + url.search)}`);
  }
  // A request the journal will not grant is said here, not sent back to a URI anyone may register.
  if (!request.scope.every(known))
    return refusal(`The app asked for access this journal does not offer (${request.scope.join(" ")}).`);
  if (!request.codeChallenge) return refusal("The app did not protect the request (PKCE is required).");
  const details = await oauth.describeConsent(request);
  const consent = await oauth.beginConsent(request);
  return html(200, consentPage(details, consent.handle), consent.headers);
}

async function decide(req: Request, env: Env, oauth: OAuthHelpers): Promise<Response> {
  const fromHere = fromThisPage(req);
  if (!fromHere)
    return html(403, messagePage("Refused", "This answer did not come from the journal's own page."));
  // The session must still be live when Allow is pressed (not only when the page was opened).
  if ((await signedIn(req, env)) !== "session")
    return html(401, messagePage("Signed out", "Sign in to the journal and connect the app again."));
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    return html(415, messagePage("Refused", "Send the consent form as the page does."));
  }
  const form = await readForm(req);
  if (!form) return html(413, messagePage("Refused", "The consent form is small; this was not it."));
  const handle = String(form.get("handle") ?? "");
  if (form.get("decision") !== "approve") {
    const denied = await oauth.denyConsent(req, handle);
    return new Response(null, { status: 302, headers: denied.headers });
  }
  const scope = form.get("access") === "write" ? ["read", "write"] : ["read"];
  const approved = await oauth.approveConsent(req, handle, { scope });
  const client = await oauth.lookupClient(approved.request.clientId);
  const clientName = plainName(client?.clientName ?? "") || "Unnamed app";
  const props: McpProps = { kind: "oauth", clientName };
  const { redirectTo } = await oauth.completeAuthorization({
    request: approved.request,
    userId: ownerId(env),
    metadata: { clientName },
    scope: approved.request.scope,
    props,
  });
  return redirect(redirectTo, approved.headers);
}

export async function consent(req: Request, env: Env, _ctx: ExecutionContext): Promise<Response> {
  const oauth = (env as Env & { OAUTH_PROVIDER: OAuthHelpers }).OAUTH_PROVIDER;
  try {
    if (req.method === "GET" || req.method === "HEAD") return await show(req, env, oauth);
    if (req.method === "POST") return await decide(req, env, oauth);
    return html(405, messagePage("Not allowed", "Open this page from the app you are connecting."));
  } catch (error) {
    // Never the library's error redirect: the app's URI is followed only after Allow or Deny.
    if (error instanceof AuthorizationError) return refusal(error.description);
    if (error instanceof CimdFetchError)
      return html(400, messagePage("Unknown app", "This app could not be verified."));
    throw error;
  }
}
