/**
 * A review edit's revert with no read before it (activity's Reverter.guarded): `restoreReview`'s
 * writes, aborted unless the statement still shows the entry's after image exactly (status, and
 * every row's choices). null when `after` is not such an image (the read path answers).
 */
import { getDb } from "../../db";
import { batchOf } from "../../db/lists";
import type { ServiceCtx } from "../../lib/context";
import { abortUnless } from "../activity/queries";
import { type Image, sameImage } from "../activity/rules";
import { ReviewImageShape } from "./ledger-images";
import type { ReviewImage } from "./review-image";
import { setStatementQuery, updateRowQuery } from "./queries";
import { reviewShows } from "./review-queries";

export function guardedRestoreReview(
  ctx: Pick<ServiceCtx, "env" | "clock" | "batch">,
  { id, before, after }: { id: string; before: ReviewImage; after: Image | null },
) {
  const shown = ReviewImageShape.safeParse(after);
  if (!shown.success || !sameImage(shown.data, after)) return null;
  // Row keys as the current image writes them (String(tx_index)), so the same set means the same rows.
  if (Object.keys(shown.data.rows).some((k) => String(Number.parseInt(k, 10)) !== k)) return null;
  const db = getDb(ctx.env.DB);
  const guards = reviewShows(db, id, shown.data).map((c) => abortUnless(db, c));
  const now = ctx.clock().toISOString();
  const writes = [
    setStatementQuery(db, id, { status: before.status, completed_at: before.completed_at, updated_at: now }),
    ...Object.entries(before.rows).map(([idx, row]) => updateRowQuery(db, id, Number(idx), row)),
  ];
  return () => ctx.batch(batchOf([...guards, ...writes]));
}
