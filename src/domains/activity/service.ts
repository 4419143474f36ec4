import { isDemo } from "../../env";
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { type ActivityRow, listEntries } from "./queries";
import { readImage } from "./images";
import type { ActivityEntry } from "./schemas";

function toEntry(r: ActivityRow): ActivityEntry {
  const { seq: _seq, resource_kind: _k, before_json, after_json, reversible, ...rest } = r;
  return {
    ...rest,
    before: readImage(before_json),
    after: readImage(after_json),
    reversible: reversible === 1,
  };
}

/** Ledger entries newest first; `principal=me` is the caller's own writes. */
export async function listActivity(
  ctx: Pick<ServiceCtx, "env" | "principal">,
  input: { limit: number; since?: string | null; operation?: string | null; principal?: string | null },
): Promise<ActivityEntry[]> {
  let principalId: string | null = input.principal ?? null;
  let principalKind: string | null = null;
  if (input.principal === "me") {
    principalId = ctx.principal.kind === "token" ? ctx.principal.id : null;
    principalKind = ctx.principal.kind === "token" ? null : ctx.principal.kind;
  }
  const rows = await listEntries(getDb(ctx.env.DB), {
    limit: input.limit,
    since: input.since ? new Date(input.since).toISOString() : null,
    operation: input.operation ?? null,
    principalId,
    principalKind,
  });
  // The public demo names no token: the kind and id say enough.
  const demo = isDemo(ctx.env);
  return rows.map((r) => (demo ? { ...toEntry(r), principal_label: null } : toEntry(r)));
}
