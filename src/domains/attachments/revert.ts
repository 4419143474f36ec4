/**
 * An attachment link's revert with no read before it (activity's Reverter.guarded): the link set
 * back to the before image's transaction, aborted unless the attachment still shows the entry's
 * after link and that transaction is still stored and not trashed (what `restoreLink` checks).
 * null when an image is not a link image this path can compare exactly (the read path answers).
 */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { decodeTxId, encodeTxId, type TxKey } from "../../lib/txid";
import { abortUnless } from "../activity/queries";
import type { Image } from "../activity/rules";
import { liveTxExists } from "../transactions/queries";
import { linkShows, setLinkQuery } from "./queries";

/** The link an image names: a key, null for none, undefined when it is not a link image. */
function linkOf(image: Image | null): TxKey | null | undefined {
  if (!image || Object.keys(image).length !== 1 || !("tx_id" in image)) return undefined;
  const txId = image.tx_id;
  if (txId === null) return null;
  const key = typeof txId === "string" ? decodeTxId(txId) : null;
  return key && encodeTxId(key.forwardedTo, key.dateFileName) === txId ? key : undefined;
}

export function guardedRestoreLink(
  ctx: Pick<ServiceCtx, "env" | "clock" | "batch">,
  { id, before, after }: { id: string; before: Image | null; after: Image | null },
) {
  const shown = linkOf(after);
  const target = linkOf(before);
  if (shown === undefined || target === undefined) return null;
  const db = getDb(ctx.env.DB);
  const live = target ? [abortUnless(db, liveTxExists(db, target))] : [];
  const write = setLinkQuery(db, id, target, ctx.clock().toISOString());
  return () => ctx.batch([abortUnless(db, linkShows(db, id, shown)), ...live, write]);
}
