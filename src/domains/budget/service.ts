/**
 * Budget configuration verbs: per user and year a targets item and a groups item, each with a
 * version used as an optimistic lock. Every write also refreshes the R2 backup; reads fall back
 * to it when D1 fails.
 */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { conflict, validationError } from "../../lib/errors";
import { loadBackup, saveBackup } from "../../lib/backup";
import { localToday } from "../../lib/local-time";
import { log } from "../../lib/log";
import { getConfig } from "../config/service";
import { type ItemKind, type ItemRow, type ItemWrite, readItems, writeItems } from "./queries";
import {
  configIssues,
  configResponse,
  EMPTY_GROUPS,
  EMPTY_TARGETS,
  type GroupsDoc,
  groupIssues,
  groupsDoc,
  parseGroups,
  parseTargets,
  type TargetsDoc,
  targetsDoc,
  targetsOut,
} from "./rules";
import type { BudgetConfigUpdateRequest, BudgetGroupConfig, GroupsResponse } from "./schemas";

interface Item {
  data: unknown;
  version: number;
}
export interface Loaded {
  userId: string;
  year: number;
  exists: { targets: boolean; groups: boolean };
  targets: TargetsDoc;
  groups: GroupsDoc;
  versions: { targets: number; groups: number };
}

const backupName = (userId: string, year: number, kind: ItemKind) =>
  `budget/${encodeURIComponent(userId)}/${year}/${kind}`; // user ids never raw into an R2 key

async function budgetUser(ctx: ServiceCtx): Promise<{ userId: string; currentYear: number }> {
  const cfg = await getConfig(ctx);
  return {
    userId: cfg.user_id,
    currentYear: Number(localToday(ctx.clock(), cfg.timezone).month.slice(0, 4)),
  };
}

/**
 * Both items of a year from D1; when D1 fails, from their R2 backups (a backup written before
 * money moved to cents is an unmarked decimal document; parseTargets converts it).
 */
export async function loadBudget(
  ctx: ServiceCtx,
  {
    userId,
    year,
    read = readItems(getDb(ctx.env.DB), userId, year),
  }: {
    userId: string;
    year: number;
    /** The rows when the caller read them in its own batch (the status does, saving a round trip). */
    read?: Promise<ItemRow[]>;
  },
): Promise<Loaded> {
  let items: Partial<Record<ItemKind, Item>>;
  try {
    const rows = await read;
    items = Object.fromEntries(rows.map((r) => [r.kind, { data: r.data, version: r.version }]));
  } catch (err) {
    log("warn", "budget.d1_read_failed_using_backup", { year, error: String(err) });
    const [t, g] = await Promise.all(
      (["targets", "groups"] as const).map((k) =>
        loadBackup<Item>(ctx.env.FILES, backupName(userId, year, k)),
      ),
    );
    items = { ...(t ? { targets: t } : {}), ...(g ? { groups: g } : {}) };
  }
  return {
    userId,
    year,
    exists: { targets: items.targets !== undefined, groups: items.groups !== undefined },
    targets: items.targets ? parseTargets(items.targets.data) : EMPTY_TARGETS,
    groups: items.groups ? parseGroups(items.groups.data) : EMPTY_GROUPS,
    versions: { targets: items.targets?.version ?? 0, groups: items.groups?.version ?? 0 },
  };
}

/** Writes items (guarded unless `expected` is null) and their backups; 409 when a version is stale. */
async function write(ctx: ServiceCtx, userId: string, year: number, items: ItemWrite[]) {
  const now = ctx.clock().toISOString();
  const versions = await writeItems(getDb(ctx.env.DB), ctx.batch, { userId, year, items, nowIso: now });
  if (!versions) {
    throw conflict("The budget configuration changed since it was read; reload and try again", "CONFLICT", {
      year,
    });
  }
  await Promise.all(
    items.map((it) =>
      saveBackup(ctx.env.FILES, backupName(userId, year, it.kind), {
        version: versions[it.kind],
        data: it.data,
      }),
    ),
  );
  return versions;
}

export async function getBudgetConfig(ctx: ServiceCtx, year: number) {
  const { userId } = await budgetUser(ctx);
  const b = await loadBudget(ctx, { userId, year });
  return configResponse(year, b.targets, b.groups, b.versions);
}

/** Replaces targets and groups of a year in one guarded write. */
export async function putBudgetConfig(
  ctx: ServiceCtx,
  { year, input }: { year: number; input: BudgetConfigUpdateRequest },
) {
  const issues = configIssues(input);
  if (issues.length) throw validationError(issues);
  const { userId } = await budgetUser(ctx);
  const before = await loadBudget(ctx, { userId, year });
  const targets = targetsDoc(input);
  const groups = groupsDoc(input.groups);
  const summary = `budget ${year}: ${Object.keys(targets.categories).length} targets, ${groups.groups.length} groups`;
  ctx.journal({
    kind: "budget-targets",
    resourceId: resourceId(userId, year),
    before: configImage(before),
    after: imageOf(targets, groups),
    summary,
  });
  const versions = await write(ctx, userId, year, [
    { kind: "targets", data: targets, expected: input.targets_version ?? 0 },
    { kind: "groups", data: groups, expected: input.groups_version ?? 0 },
  ]);
  return {
    response: configResponse(year, targets, groups, {
      targets: versions.targets ?? 0,
      groups: versions.groups ?? 0,
    }),
  };
}

export async function getGroups(ctx: ServiceCtx, year: number | null | undefined): Promise<GroupsResponse> {
  const u = await budgetUser(ctx);
  const y = year ?? u.currentYear;
  const b = await loadBudget(ctx, { userId: u.userId, year: y });
  return { year: y, groups: b.groups.groups, version: b.versions.groups };
}

export async function putGroups(
  ctx: ServiceCtx,
  {
    year,
    input,
  }: { year: number | null | undefined; input: { groups: BudgetGroupConfig[]; version: number | null } },
) {
  const issues = groupIssues(input.groups);
  if (issues.length) throw validationError(issues);
  const u = await budgetUser(ctx);
  const y = year ?? u.currentYear;
  const before = await loadBudget(ctx, { userId: u.userId, year: y });
  const groups = groupsDoc(input.groups);
  ctx.journal({
    kind: "budget-groups",
    resourceId: resourceId(u.userId, y),
    before: before.exists.groups ? { groups: before.groups.groups } : {},
    after: { groups: groups.groups },
    summary: `budget groups ${y}: ${groups.groups.length} groups`,
  });
  const versions = await write(ctx, u.userId, y, [
    { kind: "groups", data: groups, expected: input.version ?? 0 },
  ]);
  return { response: { year: y, groups: groups.groups, version: versions.groups ?? 0 } as GroupsResponse };
}

// Ledger images: budget-targets = the whole year's config (the PUT writes both items);
// budget-groups = the groups only. Versions stay out: a revert is a new write with a new version.
// Images speak the API's decimal amounts (unmarked), like the ones written before cents.
export const resourceId = (userId: string, year: number) => `${userId}:${year}`;
const imageOf = (t: TargetsDoc, g: GroupsDoc) => ({ ...targetsOut(t), groups: g.groups });
const configImage = (b: Loaded) => (b.exists.targets || b.exists.groups ? imageOf(b.targets, b.groups) : {});

function parseResourceId(id: string): { userId: string; year: number } {
  const i = id.lastIndexOf(":");
  return { userId: id.slice(0, i), year: Number(id.slice(i + 1)) };
}

export async function currentImage(
  ctx: ServiceCtx,
  { kind, id }: { kind: "budget-targets" | "budget-groups"; id: string },
) {
  const { userId, year } = parseResourceId(id);
  const b = await loadBudget(ctx, { userId, year });
  return kind === "budget-groups" ? { groups: b.groups.groups } : imageOf(b.targets, b.groups);
}

/** Writes a before image back (a create's `{}` restores the empty defaults, with a new version). */
export async function restoreImage(
  ctx: ServiceCtx,
  {
    kind,
    id,
    before,
    journal,
  }: {
    kind: "budget-targets" | "budget-groups";
    id: string;
    before: Record<string, unknown> | null;
    /** Queues the revert's own entry: it rides in the write's batch. */
    journal?: () => void;
  },
) {
  const { userId, year } = parseResourceId(id);
  const groups = parseGroups(before);
  const items: ItemWrite[] = [{ kind: "groups", data: groups, expected: null }];
  if (kind === "budget-targets") items.push({ kind: "targets", data: parseTargets(before), expected: null });
  journal?.();
  await write(ctx, userId, year, items);
}
