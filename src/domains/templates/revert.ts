/**
 * A template revert with no read before it (activity's Reverter.guarded): `restoreTemplate`,
 * aborted unless the template is still stored exactly as the entry's after image (counters aside)
 * or, after a delete, still absent. null when `after` is not such an image (the read path answers).
 */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { type ComparableTemplate, templateShows } from "../../ingest/templates/queries";
import { abortUnless } from "../activity/queries";
import type { Image } from "../activity/rules";
import { restoreTemplate } from "./service";

const TEXT = [
  "id",
  "name",
  "institution",
  "sender_domain",
  "transaction_type",
  "example",
  "created_at",
  "updated_at",
];

/** `after` as the stored row it shows: exactly a comparable template's keys and types, else undefined. */
function shownBy(after: Image): ComparableTemplate | undefined {
  const ok =
    Object.keys(after).length === TEXT.length + 3 &&
    TEXT.every((k) => typeof after[k] === "string") &&
    (after.source_failure_id === null || typeof after.source_failure_id === "string") &&
    Array.isArray(after.subject_words) &&
    !!after.pattern &&
    typeof after.pattern === "object";
  return ok ? (after as unknown as ComparableTemplate) : undefined;
}

export function guardedRestoreTemplate(
  ctx: ServiceCtx,
  { id, before, after }: { id: string; before: Image | null; after: Image | null },
) {
  const shown = after ? shownBy(after) : null;
  if (shown === undefined) return null;
  const db = getDb(ctx.env.DB);
  const guard = abortUnless(db, templateShows(db, id, shown));
  return () => restoreTemplate(ctx, { id, image: before, guard });
}
