/**
 * Connected apps: the owner's OAuth grants, with when each was last used (the library does not
 * record it: one KV key per grant, written at most once a minute).
 */
import { getOAuthApi, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import type { z } from "zod";
import type { Env } from "../../env";
import { ownerId, providerOptions } from "./oauth-config";
import { plainName, principalScope, USED_PREFIX } from "./grant";
import type { ConnectedApp as ConnectedAppSchema } from "./schemas";

export { stampAppUse } from "./grant";

const MAX_APPS = 500;

type ConnectedApp = z.infer<typeof ConnectedAppSchema>;

const inert: ExportedHandler<Env> = { fetch: () => new Response(null, { status: 404 }) };

/** The library's helpers outside a request it dispatched (listing and revoking need no resource). */
export function helpers(env: Env, origin: string): OAuthHelpers {
  return getOAuthApi(providerOptions(origin, { api: inert, other: inert }), env);
}

export async function listApps(env: Env, origin: string): Promise<ConnectedApp[]> {
  if (!env.OAUTH_KV) return [];
  const oauth = helpers(env, origin);
  const apps: ConnectedApp[] = [];
  let cursor: string | undefined;
  do {
    const page = await oauth.listUserGrants(ownerId(env), { cursor });
    for (const g of page.items) {
      const meta = (g.metadata ?? {}) as { clientName?: string };
      apps.push({
        id: g.id,
        client_id: g.clientId,
        name:
          plainName(meta.clientName ?? (await oauth.lookupClient(g.clientId))?.clientName ?? "") ||
          "Unnamed app",
        scope: principalScope(g.scope),
        connected_at: new Date(g.createdAt * 1000).toISOString(),
        last_used_at: await env.OAUTH_KV.get(USED_PREFIX + g.id),
      });
    }
    cursor = page.cursor;
  } while (cursor && apps.length < MAX_APPS);
  return apps.sort((a, b) => b.connected_at.localeCompare(a.connected_at));
}

/** Revokes the grant and every token of it at once; null when there is no such app. */
export async function disconnectApp(env: Env, origin: string, id: string): Promise<ConnectedApp | null> {
  const app = (await listApps(env, origin)).find((a) => a.id === id);
  if (!app || !env.OAUTH_KV) return null;
  await helpers(env, origin).revokeGrant(id, ownerId(env));
  await env.OAUTH_KV.delete(USED_PREFIX + id);
  return app;
}
