/**
 * The ledger reverter of an override consolidation (kind `override_consolidation`, resource: the
 * group's normalized key): the members' overrides come back as they were and the canonical one goes
 * (a member that was the canonical gets its old category back). The images name every company:
 * before, the members' overrides; after, the canonical one. Entries journaled before this reverter
 * existed were not reversible and stay so.
 */
import { z } from "zod";
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { type EntryImages, typedReverter } from "../activity/reverters";
import type { Image } from "../activity/rules";
import { requireLiveCategories } from "../categories/service";
import { deleteOverrideRow, getOverride, type OverrideEntry, upsertOverride } from "./queries";
import { writeOverrides } from "./service";

const Group = z.object({ overrides: z.array(z.object({ company: z.string(), category: z.string() })) });
type Group = z.infer<typeof Group>;

const lower = (s: string) => s.toLowerCase();
const overridesOf = (image: Image | null | undefined) => {
  const g = Group.safeParse(image);
  return g.success ? g.data.overrides : null;
};

/** Every company the images name, the after's first, once each (a company is one override, any case). */
function companiesOf(before: OverrideEntry[], after: OverrideEntry[]): string[] {
  const seen = new Map<string, string>();
  for (const o of [...after, ...before])
    if (!seen.has(lower(o.company))) seen.set(lower(o.company), o.company);
  return [...seen.values()];
}

/** The stored overrides of those companies, in that order. */
async function current(ctx: Pick<ServiceCtx, "env">, _key: string, images: EntryImages) {
  const before = overridesOf(images.before);
  const after = overridesOf(images.after);
  if (!before || !after) return null;
  const overrides: OverrideEntry[] = [];
  for (const company of companiesOf(before, after)) {
    const found = await getOverride(getDb(ctx.env.DB), company);
    if (found) overrides.push(found);
  }
  return { overrides };
}

/** Deletes what the after names and the before does not, then writes the before's overrides back. */
function writes(
  db: ReturnType<typeof getDb>,
  before: OverrideEntry[],
  after: OverrideEntry[],
  nowIso: string,
) {
  const kept = new Set(before.map((o) => lower(o.company)));
  return [
    ...after.filter((o) => !kept.has(lower(o.company))).map((o) => deleteOverrideRow(db, o.company)),
    ...before.map((o) => upsertOverride(db, o, nowIso)),
  ];
}

export const consolidationReverter = typedReverter(Group, {
  current,
  restore: async (ctx, _key, before: Group, opts) => {
    const after = overridesOf(opts.after) ?? [];
    const names = before.overrides.map((o) => o.category);
    const recreated = await requireLiveCategories(ctx, { names, force: opts.force });
    opts.journal?.(recreated); // the revert's own entry rides in the list write's batch
    await writeOverrides(ctx, writes(getDb(ctx.env.DB), before.overrides, after, ctx.clock().toISOString()));
    return { recreated_categories: recreated };
  },
});
