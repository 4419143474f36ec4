import { StoredJsonError } from "../../db/json";
import { isDemo } from "../../env";
import type { ServiceCtx } from "../../lib/context";
import { conflict, notFound } from "../../lib/errors";
import { newEntryId } from "./journal";
import { type ActivityRow, claimRevert, getEntry, listEntries, releaseRevert } from "./queries";
import { imageReader, readImage } from "./images";
import { getReverter, type Reverter } from "./reverters";
import { changedKeys, type Image, type ImageLike, sameImage } from "./rules";
import type { ActivityEntry } from "./schemas";

/** The categories a restore recreated (its RestoreOutcome), or none. */
function recreatedOf(outcome: unknown): string[] {
  if (!outcome || typeof outcome !== "object" || !("recreated_categories" in outcome)) return [];
  const found: unknown = outcome.recreated_categories;
  return Array.isArray(found) ? found.filter((c): c is string => typeof c === "string") : [];
}

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
  const rows = await listEntries(ctx.env.DB, {
    limit: input.limit,
    since: input.since ? new Date(input.since).toISOString() : null,
    operation: input.operation ?? null,
    principalId,
    principalKind,
  });
  // The public demo names no token (issue 26 finding 10): the kind and id say enough.
  const demo = isDemo(ctx.env);
  return rows.map((r) => (demo ? { ...toEntry(r), principal_label: null } : toEntry(r)));
}

export interface RevertPlan {
  entry: ActivityRow;
  force: boolean;
  kind: string;
  current: ImageLike | null;
  /** The before image as stored (a JSON object): the revert's own entry records it. */
  before: Image | null;
  /** The before image in the shape the kind's reverter declared: what `restore` gets. */
  restore: Image | null;
}

/** The entry's before image in its reverter's shape; one out of shape is a 409, not a 500. */
function typedBefore(entry: ActivityRow, kind: string, reverter: Reverter): Image | null {
  if (!reverter.image) return readImage(entry.before_json);
  try {
    return imageReader(kind, reverter.image)(entry.before_json);
  } catch (err) {
    if (!(err instanceof StoredJsonError)) throw err;
    throw conflict(
      "This entry's before image cannot be restored: it is not in its kind's shape",
      "CONFLICT",
      {
        entry_id: entry.id,
        problem: err.message,
      },
    );
  }
}

/**
 * Checks that an entry can be undone: 404 unknown; 409 CONFLICT already reverted or not
 * reversible; 409 stale_revert when the resource changed since (unless `force`).
 */
export async function planRevert(ctx: ServiceCtx, { id, force }: { id: string; force: boolean }) {
  const entry = await getEntry(ctx.env.DB, id);
  if (!entry) throw notFound("Activity entry");
  if (entry.reverted_at) {
    throw conflict("This entry was already reverted", "CONFLICT", { reverted_by: entry.reverted_by });
  }
  const reverter = entry.resource_kind ? getReverter(entry.resource_kind) : undefined;
  if (entry.reversible !== 1 || !reverter || !entry.resource_kind || !entry.resource_id) {
    throw conflict("This entry is not reversible (no before/after image was recorded)");
  }
  const restore = typedBefore(entry, entry.resource_kind, reverter);
  const after = readImage(entry.after_json);
  const current = await reverter.current(ctx, entry.resource_id);
  if (!force && !sameImage(current, after)) {
    throw conflict(
      "The resource changed since this entry; revert with force=true to apply anyway",
      "stale_revert",
      {
        entry_id: entry.id,
        resource_id: entry.resource_id,
        changed_fields: changedKeys(current, after),
      },
    );
  }
  return {
    entry,
    force,
    kind: entry.resource_kind,
    current,
    before: readImage(entry.before_json),
    restore,
  } satisfies RevertPlan;
}

/**
 * Restores the before image after stamping the entry reverted by a new entry: the revert's own
 * entry (images kept, not reversible), queued before the restore's batch so it rides in it (see
 * RestoreOptions.journal). Returns its summary and the categories recreated on the way
 * (force=true over a deleted category).
 */
export async function applyRevert(
  ctx: ServiceCtx,
  plan: RevertPlan,
): Promise<{ summary: string; recreated_categories: string[] }> {
  const { entry } = plan;
  const at = ctx.clock().toISOString();
  const revertEntryId = newEntryId();
  if (!(await claimRevert(ctx.env.DB, entry.id, at, revertEntryId))) {
    throw conflict("This entry was already reverted");
  }
  let summary: string | null = null;
  const journal = (recreated: string[] = []) => {
    if (summary !== null) return;
    const also = recreated.length ? `; recreated category ${recreated.join(", ")}` : "";
    summary = `revert of ${entry.id}: restored ${plan.kind} ${entry.resource_id}${also}`;
    ctx.journal({
      id: revertEntryId,
      kind: plan.kind,
      resourceId: entry.resource_id!,
      before: plan.current,
      after: plan.before,
      summary,
      reversible: false,
    });
  };
  try {
    const outcome = await getReverter(plan.kind)!.restore(ctx, entry.resource_id!, plan.restore, {
      force: plan.force,
      journal,
    });
    const recreated = recreatedOf(outcome);
    journal(recreated);
    return { summary: summary!, recreated_categories: recreated };
  } catch (err) {
    await releaseRevert(ctx.env.DB, entry.id, revertEntryId);
    throw err;
  }
}
