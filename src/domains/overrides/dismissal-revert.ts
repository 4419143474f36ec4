/**
 * The ledger reverter of suggestion dismissals (kind `override_suggestion_dismissal`, resource: the
 * dismissal key): a dismiss is undone by removing the dismissal, an undismiss by writing it back.
 * Entries written before this reverter existed were journaled not reversible and stay so.
 */
import { z } from "zod";
import { getDb } from "../../db";
import { writeList } from "../../db/lists";
import type { ServiceCtx } from "../../lib/context";
import { typedReverter } from "../activity/reverters";
import { DISMISSED, deleteDismissed, dismissedQuery, upsertDismissed } from "./queries";

const Row = z.object({
  key: z.string(),
  company: z.string(),
  category: z.string(),
  dismissed_at: z.string(),
});
/** A dismissal's image: the row, or `{}`/null when there was none. */
const DismissalImage = Row.or(z.object({}).transform(() => null)).nullable();

async function current(ctx: Pick<ServiceCtx, "env">, key: string) {
  const [row] = await dismissedQuery(getDb(ctx.env.DB), key);
  return row ?? null;
}

export const dismissalReverter = typedReverter(DismissalImage, {
  current,
  /** Writes `before` back under `key` (null: no dismissal) in one batch. */
  restore: async (ctx, key, before, opts) => {
    const db = getDb(ctx.env.DB);
    opts.journal?.(); // the revert's own entry rides in the list write's batch
    await writeList(ctx, DISMISSED, [
      before ? upsertDismissed(db, { ...before, key }) : deleteDismissed(db, key),
    ]);
  },
});
