/**
 * The Worker's fetch: the OAuth provider in front of the app (DESIGN.md → "OAuth in front of
 * /mcp"). /mcp is the protected resource: the provider checks the bearer (its own access tokens,
 * or our `fin_` tokens through `resolveExternalToken`) and answers a 401 with the RFC 9728
 * `WWW-Authenticate` pointer; the app then runs as before with `ctx.props` set. The consent page
 * (/oauth/authorize) is ours; everything else goes to the app untouched. A Worker without the
 * OAUTH_KV binding, and the demo, run the app alone (fin_ tokens only, as before this front).
 */
import { OAuthProvider } from "@cloudflare/workers-oauth-provider";
import { app } from "../app";
import { type Env, isDemo } from "../env";
import { secureResponse } from "../http/headers";
import { log } from "../lib/log";
import { AUTHORIZE_PATH, providerOptions } from "../domains/connected-apps/oauth-config";
import { consent } from "./consent";
import { guardOAuth } from "./guard";

const appHandler: ExportedHandler<Env> = { fetch: (req, env, ctx) => app.fetch(req, env, ctx) };

const otherHandler: ExportedHandler<Env> = {
  fetch: (req, env, ctx) => {
    const path = new URL(req.url).pathname;
    if (path === AUTHORIZE_PATH) return consent(req as Request, env, ctx);
    return app.fetch(req, env, ctx);
  },
};

/** One provider per public origin (its resource URL is the origin's /mcp). */
const providers = new Map<string, OAuthProvider<Env> | null>();

function providerFor(origin: string): OAuthProvider<Env> | null {
  let p = providers.get(origin);
  if (p === undefined) {
    try {
      p = new OAuthProvider<Env>(providerOptions(origin, { api: appHandler, other: otherHandler }));
    } catch (err) {
      // e.g. plain http on a non-loopback host: no OAuth there, the app alone answers.
      log("warn", "oauth.provider_unavailable", { origin, error: String(err) });
      p = null;
    }
    if (providers.size > 16) providers.clear();
    providers.set(origin, p);
  }
  return p;
}

export async function workerFetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  if (!env.OAUTH_KV || isDemo(env)) return app.fetch(request, env, ctx);
  const provider = providerFor(new URL(request.url).origin);
  if (!provider) return app.fetch(request, env, ctx);
  // Registration bounds and refresh-token reuse are checked before the library sees the request;
  // every answer (the library's own too) leaves with the app's security headers.
  const guarded = await guardOAuth(request, env, new Date());
  if (guarded instanceof Response) return secureResponse(guarded);
  // The provider caches its helpers on `env`: a copy per request keeps origins apart.
  return secureResponse(await provider.fetch(guarded, { ...env }, ctx));
}
