/**
 * A layout revert with no read before it (activity's Reverter.guarded): `restoreLayout`'s write,
 * aborted unless the layout is still stored exactly as the entry's after image or, after a delete,
 * still absent. null when `after` is not such an image (the read path answers).
 */
import { getDb } from "../../../db";
import { batchOf } from "../../../db/lists";
import type { StatementLayoutRecord } from "../../../db/schema";
import type { ServiceCtx } from "../../../lib/context";
import { abortUnless } from "../../activity/queries";
import { type Image, sameImage } from "../../activity/rules";
import { layoutShows, restoreLayoutQuery } from "./queries";
import { LayoutImage } from "./stored";

export function guardedRestoreLayout(
  ctx: Pick<ServiceCtx, "env" | "batch">,
  { id, before, after }: { id: string; before: StatementLayoutRecord | null; after: Image | null },
) {
  const shown = LayoutImage.safeParse(after);
  // Exactly a stored row of this id (no key more or less), or null (deleted: still absent).
  if (!shown.success || !sameImage(shown.data, after) || (shown.data && shown.data.id !== id)) return null;
  const db = getDb(ctx.env.DB);
  const guard = abortUnless(db, layoutShows(db, id, shown.data));
  return () => ctx.batch(batchOf([guard, restoreLayoutQuery(db, id, before)]));
}
