/**
 * The ledger reverter of a category's look (kind `category`, resource: its name): a group or icon
 * change is undone by writing the before image's group and icon back. Add, rename and delete
 * entries are journaled not reversible (their images do not hold the rows they moved).
 */
import { z } from "zod";
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { conflict } from "../../lib/errors";
import { typedReverter } from "../activity/reverters";
import { setGroup, setIcon } from "./queries";
import { findCategory } from "./rules";
import { categoryImage, loadCategoryState, writeCategories } from "./service";

const Look = z.object({ name: z.string(), group: z.string().nullable(), icon: z.string().nullable() });

async function current(ctx: Pick<ServiceCtx, "env">, name: string) {
  const row = findCategory((await loadCategoryState(ctx.env)).rows, name);
  return row ? categoryImage(row) : null;
}

export const categoryReverters = {
  category: typedReverter(Look, {
    current,
    /** Writes `before`'s group and icon back on the stored row (it exists: the stale guard or `force`). */
    restore: async (ctx, _name, look, opts) => {
      const state = await loadCategoryState(ctx.env);
      const row = findCategory(state.rows, look.name);
      if (!row)
        throw conflict(`Category '${look.name}' no longer exists`, "CONFLICT", { category: look.name });
      const db = getDb(ctx.env.DB);
      opts.journal?.(); // the revert's own entry rides in the list write's batch
      await writeCategories(ctx, {
        state,
        stmts: [setGroup(db, row.name, look.group), setIcon(db, row.name, look.icon)],
      });
    },
  }),
};
