/**
 * POST /activity/{id}/revert: undo one ledger entry. One path for every kind: the entry, the
 * resource's current image (stale check), the restore's own reads, then the restore's batch, which
 * the claim and the revert's own entry ride in.
 */
import { getDb } from "../../db";
import { StoredJsonError } from "../../db/json";
import type { Batch, ServiceCtx, Statements } from "../../lib/context";
import { conflict, notFound } from "../../lib/errors";
import { imageReader, readImage } from "./images";
import { newEntryId } from "./journal";
import { type ActivityRow, claimRevert, claimStatements, getEntry, releaseRevert } from "./queries";
import { getReverter, type Reverter } from "./reverters";
import { changedKeys, type Image, type ImageLike, sameImage } from "./rules";

interface Plan {
  entry: ActivityRow;
  kind: string;
  resourceId: string;
  reverter: Reverter;
  force: boolean;
  /** The stored images as JSON objects: the revert's own entry records them. */
  before: Image | null;
  after: Image | null;
  /** The before image in the shape the kind's reverter declared: what `restore` gets. */
  restore: Image | null;
  /** The revert's own entry: its id stamps the original (`reverted_by`). */
  id: string;
  at: string;
}

export interface Reverted {
  summary: string;
  recreated_categories: string[];
}

/** The categories a restore recreated (its RestoreOutcome), or none. */
function recreatedOf(outcome: unknown): string[] {
  if (!outcome || typeof outcome !== "object" || !("recreated_categories" in outcome)) return [];
  const found: unknown = outcome.recreated_categories;
  return Array.isArray(found) ? found.filter((c): c is string => typeof c === "string") : [];
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

/** 404 unknown; 409 CONFLICT already reverted, not reversible, or its before image out of shape. */
async function plan(ctx: ServiceCtx, id: string, force: boolean): Promise<Plan> {
  const entry = await getEntry(getDb(ctx.env.DB), id);
  if (!entry) throw notFound("Activity entry");
  if (entry.reverted_at) {
    throw conflict("This entry was already reverted", "CONFLICT", { reverted_by: entry.reverted_by });
  }
  const reverter = entry.resource_kind ? getReverter(entry.resource_kind) : undefined;
  if (entry.reversible !== 1 || !reverter || !entry.resource_kind || !entry.resource_id) {
    throw conflict("This entry is not reversible (no before/after image was recorded)");
  }
  const kind = entry.resource_kind;
  return {
    entry,
    kind,
    resourceId: entry.resource_id,
    reverter,
    force,
    restore: typedBefore(entry, kind, reverter),
    before: readImage(entry.before_json),
    after: readImage(entry.after_json),
    id: newEntryId(),
    at: ctx.clock().toISOString(),
  };
}

const summaryOf = (p: Plan, recreated: readonly string[]) =>
  `revert of ${p.entry.id}: restored ${p.kind} ${p.resourceId}` +
  (recreated.length ? `; recreated category ${recreated.join(", ")}` : "");

/** Queues the revert's own entry (images kept, not itself reversible). */
function journal(ctx: ServiceCtx, p: Plan, current: ImageLike | null, summary: string) {
  ctx.journal({
    id: p.id,
    kind: p.kind,
    resourceId: p.resourceId,
    before: current,
    after: p.before,
    summary,
    reversible: false,
  });
}

/** Undoes the entry: 404/409 as `plan`; 409 stale_revert (unless force); a reverter's own 409s. */
export async function revertEntry(ctx: ServiceCtx, input: { id: string; force: boolean }): Promise<Reverted> {
  const p = await plan(ctx, input.id, input.force);
  const current = await p.reverter.current(ctx, p.resourceId, { before: p.before, after: p.after });
  if (!p.force && !sameImage(current, p.after)) {
    throw conflict(
      "The resource changed since this entry; revert with force=true to apply anyway",
      "stale_revert",
      {
        entry_id: p.entry.id,
        resource_id: p.resourceId,
        changed_fields: changedKeys(current, p.after),
      },
    );
  }
  return restore(ctx, p, current);
}

/**
 * A context whose batch that takes the revert's entry (queued just before it: `journal`) takes the
 * claim first; `claimed()` says whether such a batch was written.
 */
function claiming(ctx: ServiceCtx, p: Plan, queued: () => boolean) {
  let claimed = false;
  const batch = (async (stmts: Statements, opts?: { ifChanged?: boolean }) => {
    if (claimed || !queued()) return ctx.batch(stmts, opts);
    const claim = claimStatements(getDb(ctx.env.DB), p.entry.id, p.at, p.id);
    const res = await ctx.batch([...claim, ...stmts], opts);
    claimed = true;
    return res.slice(claim.length);
  }) as Batch;
  return { ctx: { ...ctx, batch }, claimed: () => claimed };
}

/** The restore, its batch taking the claim and the revert's own entry. */
async function restore(ctx: ServiceCtx, p: Plan, current: ImageLike | null): Promise<Reverted> {
  let summary: string | null = null;
  const c = claiming(ctx, p, () => summary !== null);
  const queue = (recreated: string[] = []) => {
    if (summary !== null) return;
    summary = summaryOf(p, recreated);
    journal(ctx, p, current, summary);
  };
  try {
    const outcome = await p.reverter.restore(c.ctx, p.resourceId, p.restore, {
      force: p.force,
      journal: queue,
      after: p.after,
    });
    const recreated = recreatedOf(outcome);
    queue(recreated);
    // A restore with no batch of its own for the claim: stamped after it.
    if (!c.claimed() && !(await claimRevert(getDb(ctx.env.DB), p.entry.id, p.at, p.id))) {
      throw conflict("This entry was already reverted");
    }
    return { summary: summary!, recreated_categories: recreated };
  } catch (err) {
    if (c.claimed()) await releaseRevert(getDb(ctx.env.DB), p.entry.id, p.id);
    else if ((await getEntry(getDb(ctx.env.DB), p.entry.id))?.reverted_at)
      throw conflict("This entry was already reverted");
    throw err;
  }
}
