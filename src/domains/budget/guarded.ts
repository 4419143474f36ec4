/**
 * A budget revert with no read before it (activity's Reverter.guarded): `restoreImage`, aborted
 * unless the stored items are the documents the entry's after image was made from (compared as
 * JSON). null when no stored document shows that image exactly (the read path answers).
 */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { abortUnless } from "../activity/queries";
import { type Image, sameImage } from "../activity/rules";
import { itemShows } from "./queries";
import { parseGroups, parseTargets } from "./rules";
import { imageOf, parseResourceId, restoreImage } from "./service";

type Kind = "budget-targets" | "budget-groups";

export function guardedBudgetRestore(
  ctx: ServiceCtx,
  { kind, id, before, after }: { kind: Kind; id: string; before: Image | null; after: Image | null },
) {
  if (!after) return null;
  const { userId, year } = parseResourceId(id);
  const groups = parseGroups(after);
  const targets = kind === "budget-targets" ? parseTargets(after) : null;
  // What the read path would see with these documents stored: it must be `after` exactly.
  const seen = targets
    ? imageOf(parseTargets(targets), parseGroups(groups))
    : { groups: parseGroups(groups).groups };
  if (!sameImage(seen, after)) return null;
  const db = getDb(ctx.env.DB);
  const guards = [abortUnless(db, itemShows(db, userId, year, "groups", groups))];
  if (targets) guards.push(abortUnless(db, itemShows(db, userId, year, "targets", targets)));
  return () => restoreImage(ctx, { kind, id, before, guards });
}
