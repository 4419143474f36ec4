/**
 * An import's revert with no read before it (activity's Reverter.guarded): `restoreImage`'s writes,
 * aborted unless the statement still shows the entry's after image exactly (its status, every
 * row's result, the touched transactions' fields). null when `after` is not such an image (the
 * read path answers).
 */
import { getDb } from "../../db";
import { batchOf } from "../../db/lists";
import type { ServiceCtx } from "../../lib/context";
import { abortUnless } from "../activity/queries";
import { type Image, sameImage } from "../activity/rules";
import { restoreWrites } from "./import";
import { importShows } from "./import-revert-queries";
import { ImportImageShape, type StoredImportImage } from "./ledger-images";

const TX_FIELDS = ["Amount", "Company", "Category", "CategoryAudit", "StatementSource"];

/** `after` as an image `currentImage` could read: its shape exactly, canonical row keys, `fwd\ndfn` keys. */
function shownBy(after: Image | null): StoredImportImage | null {
  const shown = ImportImageShape.safeParse(after);
  if (!shown.success || !sameImage(shown.data, after)) return null;
  const { rows, transactions } = shown.data;
  if (Object.keys(rows).some((k) => String(Number.parseInt(k, 10)) !== k)) return null;
  for (const [key, img] of Object.entries(transactions)) {
    if (key.split("\n").length !== 2) return null;
    if (img && !TX_FIELDS.every((f) => f in img)) return null;
  }
  return shown.data;
}

export function guardedRestoreImport(
  ctx: Pick<ServiceCtx, "env" | "clock" | "batch">,
  { id, before, after }: { id: string; before: StoredImportImage; after: Image | null },
) {
  const shown = shownBy(after);
  if (!shown) return null;
  const db = getDb(ctx.env.DB);
  const guards = importShows(db, id, shown).map((c) => abortUnless(db, c));
  const writes = restoreWrites(db, id, before, ctx.clock().toISOString());
  return () => ctx.batch(batchOf([...guards, ...writes]));
}
