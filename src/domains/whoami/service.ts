import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { findActiveToken } from "../auth/queries";
import type { WhoamiResponse } from "../auth/schemas";

const KINDS = new Set(["token", "session", "tofu", "dev-bypass"]);

/** The caller's identity; token fields only for token principals (last use read fresh from D1). */
export async function whoami(ctx: Pick<ServiceCtx, "env" | "principal">): Promise<WhoamiResponse> {
  const p = ctx.principal;
  const kind = (KINDS.has(p.kind) ? p.kind : "tofu") as WhoamiResponse["kind"];
  if (p.kind !== "token" || !p.id) {
    return { kind, token_id: null, label: null, scope: null, last_used_at: null };
  }
  const row = await findActiveToken(getDb(ctx.env.DB), p.id);
  return {
    kind,
    token_id: p.id,
    label: row?.label ?? p.label,
    scope: row?.scope ?? p.scope,
    last_used_at: row?.last_used_at ?? null,
  };
}
