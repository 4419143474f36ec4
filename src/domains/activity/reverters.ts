/**
 * Reverters by resource kind: how `POST /activity/{id}/revert` reads a resource's current image
 * and writes an entry's before image back. Each domain's index.ts exports its reverters and
 * app.ts registers them; nothing registers itself on import.
 */
import type { ServiceCtx } from "../../lib/context";
import type { Image, ImageLike } from "./rules";

/** `force`: the caller accepted a stale resource and asked for deleted categories to be recreated. */
export interface RestoreOptions {
  force: boolean;
  /**
   * Queues the revert's own ledger entry, naming the categories recreated on the way: every
   * reverter calls it just before the restore's `ctx.batch`, so the entry lands with the restore
   * (each domain's revert test checks it with expectEntryInBatch). Not called: the entry is queued
   * after the restore and written by the door (a fallback, not a way to write one).
   */
  journal?: (recreated?: string[]) => void;
}

/** What a restore did beyond writing the image (said in the revert's response). */
export interface RestoreOutcome {
  recreated_categories?: string[];
}

export interface Reverter {
  /** The resource's current image, compared with the entry's `after` (stale guard). */
  current(ctx: ServiceCtx, resourceId: string): Promise<ImageLike | null>;
  /**
   * Writes the entry's `before` image back. A before image naming a category deleted since is
   * refused (409 CATEGORY_DELETED) unless `force`, which recreates it. Resolves to a
   * RestoreOutcome, or to nothing (most reverters).
   */
  restore(ctx: ServiceCtx, resourceId: string, before: Image | null, opts: RestoreOptions): Promise<unknown>;
}

/** A domain's reverters, keyed by the resource kind its routes stage images under. */
export type Reverters = Readonly<Record<string, Reverter>>;

const registry = new Map<string, Reverter>();

/** Called by app.ts with every domain's reverters. */
export function registerReverters(...sets: Reverters[]): void {
  for (const set of sets) for (const [kind, reverter] of Object.entries(set)) registry.set(kind, reverter);
}

export function getReverter(kind: string): Reverter | undefined {
  return registry.get(kind);
}
