/**
 * Reverters by resource kind: how `POST /activity/{id}/revert` reads a resource's current image
 * and writes an entry's before image back. Each domain's index.ts exports its reverters and
 * app.ts registers them; nothing registers itself on import.
 */
import type { z } from "zod";
import type { ServiceCtx } from "../../lib/context";
import type { Image, ImageLike } from "./rules";

/** `force`: the caller accepted a stale resource and asked for deleted categories to be recreated. */
interface RestoreOptions {
  force: boolean;
  /**
   * Queues the revert's own ledger entry, naming the categories recreated on the way: every
   * reverter calls it just before the restore's `ctx.batch`, so the entry lands with the restore
   * (each domain's revert test checks it with expectEntryInBatch). Not called: the entry is queued
   * after the restore and written by the door (a fallback, not a way to write one).
   */
  journal?: (recreated?: string[]) => void;
  /** The entry's after image (a restore that must undo what the after names, e.g. a consolidation's new override). */
  after?: Image | null;
}

/** An entry's stored images (JSON objects, or null). */
export interface EntryImages {
  before: Image | null;
  after: Image | null;
}

/** What a restore did beyond writing the image (said in the revert's response). */
export interface RestoreOutcome {
  recreated_categories?: string[];
}

export interface Reverter<T extends Image | null = Image | null> {
  /**
   * The shape of this kind's before images (null included when a restore takes null), for a
   * restore that needs their fields: the entry's before image is read through it
   * (src/domains/activity/images.ts) and one out of shape refuses the revert (409) before
   * anything is written. Without one, `before` is any JSON object, or null.
   */
  image?: z.ZodType<T>;
  /**
   * The resource's current image, compared with the entry's `after` (stale guard). `images`: the
   * entry's stored images, for a kind whose resource id alone does not name every row it covers.
   */
  current(ctx: ServiceCtx, resourceId: string, images: EntryImages): Promise<ImageLike | null>;
  /**
   * Writes the entry's `before` image back. A before image naming a category deleted since is
   * refused (409 CATEGORY_DELETED) unless `force`, which recreates it. Resolves to a
   * RestoreOutcome, or to nothing (most reverters).
   */
  restore(ctx: ServiceCtx, resourceId: string, before: T, opts: RestoreOptions): Promise<unknown>;
}

/**
 * A reverter whose restore takes its kind's typed image (`image` declares it). The registry keeps
 * it as a Reverter of any object: the image handed to `restore` is always the one `image` read.
 */
export const typedReverter = <T extends Image | null>(
  image: z.ZodType<T>,
  r: Omit<Reverter<T>, "image">,
): Reverter => ({
  image,
  ...r,
});

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
