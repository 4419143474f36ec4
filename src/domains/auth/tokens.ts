/** API token verbs: issue (raw value shown once), list, revoke, authenticate, stamp last use. */
import { getDb, type Db } from "../../db";
import { isDemo } from "../../env";
import type { ServiceCtx } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { newRawToken, newTokenId, sha256Hex } from "./crypto";
import { insertToken, listActiveTokens, revokeToken, stampTokenUsed, type TokenRow } from "./queries";
import { LAST_USED_THROTTLE_MS, shouldStampLastUsed, type TokenScope } from "./rules";

export type { TokenRow };

/** Mints a token; only its SHA-256 is stored, the raw value is returned this once. */
export async function issueToken(
  ctx: ServiceCtx,
  input: { label: string; scope: TokenScope },
): Promise<TokenRow & { token: string }> {
  const token = newRawToken();
  const row: TokenRow = {
    id: newTokenId(),
    label: input.label,
    scope: input.scope,
    created_at: ctx.clock().toISOString(),
    last_used_at: null,
  };
  const insert = insertToken(getDb(ctx.env.DB), { ...row, token_hash: await sha256Hex(token) });
  ctx.journal?.({ resourceId: row.id, summary: `issued ${row.scope} token "${row.label}"` });
  await ctx.batch([insert]);
  return { ...row, token };
}

/**
 * Live tokens, oldest first: ids, labels, scopes and times, never a token or a hash. Labels stand in
 * for a person's devices and tools: the public demo does not show them.
 */
export async function listTokens(ctx: Pick<ServiceCtx, "env">): Promise<TokenRow[]> {
  const rows = await listActiveTokens(getDb(ctx.env.DB));
  return isDemo(ctx.env) ? rows.map((r) => ({ ...r, label: "(hidden in the demo)" })) : rows;
}

/** Permanent revocation; 404 when the id is unknown or already revoked (then no entry either). */
export async function revokeTokenById(ctx: ServiceCtx, id: string) {
  ctx.journal?.({ resourceId: id, summary: "revoked token" });
  const [res] = await ctx.batch([revokeToken(getDb(ctx.env.DB), id, ctx.clock().toISOString())], {
    ifChanged: true,
  });
  if (res.meta.changes === 0) throw notFound("Token");
}

/** Records use at most once per 15 minutes per token (the UPDATE is conditional too). */
export async function stampLastUsed(db: Db, token: TokenRow, now: Date): Promise<void> {
  if (!shouldStampLastUsed(token.last_used_at, now)) return;
  const staleBefore = new Date(now.getTime() - LAST_USED_THROTTLE_MS).toISOString();
  await stampTokenUsed(db, token.id, now.toISOString(), staleBefore);
}
