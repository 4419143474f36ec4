/**
 * A connected app for a bench, made as the consent page makes one (src/oauth/consent.ts): a
 * registered client and the owner's grant to it, through the OAuth library's own helpers (no
 * browser round of the flow). Returns the grant id (the app id of /api/v1/connected-apps).
 */
import { getOAuthApi } from "@cloudflare/workers-oauth-provider";
import type { Env } from "../../src/env";
import { ownerId, providerOptions } from "../../src/domains/connected-apps/oauth-config";
import type { McpProps } from "../../src/domains/connected-apps/grant";

const inert: ExportedHandler<Env> = { fetch: () => new Response(null, { status: 404 }) };

export async function connectApp(env: Env, name = "Bench Assistant"): Promise<string> {
  const oauth = getOAuthApi(providerOptions("http://localhost", { api: inert, other: inert }), env);
  const redirectUri = "http://127.0.0.1:33418/callback";
  const client = await oauth.createClient({
    clientName: name,
    redirectUris: [redirectUri],
    tokenEndpointAuthMethod: "none",
  });
  const props: McpProps = { kind: "oauth", clientName: name };
  await oauth.completeAuthorization({
    request: {
      responseType: "code",
      clientId: client.clientId,
      redirectUri,
      scope: ["read"],
      state: "bench",
      codeChallenge: "E9Melhoe2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      codeChallengeMethod: "S256",
    },
    userId: ownerId(env),
    metadata: { clientName: name },
    scope: ["read"],
    props,
  });
  const grants = await oauth.listUserGrants(ownerId(env));
  const grant = grants.items.find((g) => g.clientId === client.clientId);
  if (!grant) throw new Error("the bench's grant was not stored");
  return grant.id;
}
