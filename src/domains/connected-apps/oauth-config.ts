/**
 * OAuth 2.1 in front of the MCP endpoint (@cloudflare/workers-oauth-provider): the provider's
 * options for one public origin. The provider serves the discovery documents (RFC 8414, RFC 9728),
 * dynamic client registration (RFC 7591), the token endpoint (PKCE S256 only, rotating refresh
 * tokens) and revocation; the consent page is ours (consent.ts). Our `fin_` bearer tokens keep
 * working on /mcp as external tokens: validated here, then again (with their scope) by the app.
 */
import { ExternalTokenError, type OAuthProviderOptions } from "@cloudflare/workers-oauth-provider";
import { requestToken } from "../auth/request";
import { parseBearer } from "../auth/rules";
import type { Env } from "../../env";
import { log } from "../../lib/log";
import type { McpProps } from "./grant";

/** What an app may ask for: "read" (read your journal) and "write" (read and change it). */
export const OAUTH_SCOPES = ["read", "write"] as const;

export const AUTHORIZE_PATH = "/oauth/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";
const MCP_PATH = "/mcp";

const ACCESS_TOKEN_TTL_S = 3600;
const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;

/** The journal has one owner: every grant belongs to this user id. */
export const ownerId = (env: Env) => env.DEFAULT_USER_ID || "default";

export { type McpProps, principalScope } from "./grant";

export function providerOptions(
  origin: string,
  handlers: { api: ExportedHandler<Env>; other: ExportedHandler<Env> },
): OAuthProviderOptions<Env> {
  const resource = `${origin}${MCP_PATH}`;
  return {
    apiRoute: MCP_PATH,
    apiHandler: handlers.api as OAuthProviderOptions<Env>["apiHandler"],
    defaultHandler: handlers.other,
    authorizeEndpoint: AUTHORIZE_PATH,
    tokenEndpoint: TOKEN_PATH,
    clientRegistrationEndpoint: REGISTER_PATH,
    scopesSupported: [...OAUTH_SCOPES],
    // Apps register themselves (RFC 7591); metadata-document client ids are not offered.
    clientIdMetadataDocumentEnabled: false,
    accessTokenTTL: ACCESS_TOKEN_TTL_S,
    refreshTokenTTL: REFRESH_TOKEN_TTL_S,
    resourceMetadata: { resource, resource_name: "Finance Journal" },
    resolveExternalToken: async ({ request, env }) => {
      const raw = parseBearer(request.headers.get("authorization") ?? "");
      if (!raw) return null;
      const token = await requestToken(env, raw).catch((err) => {
        log("warn", "oauth.fin_lookup_failed", { error: String(err) });
        throw new ExternalTokenError("temporarily_unavailable", {
          description: "Tokens cannot be checked right now; retry",
          statusCode: 503,
        });
      });
      if (!token) return null;
      return { props: { kind: "fin" } satisfies McpProps, audience: resource };
    },
  };
}
