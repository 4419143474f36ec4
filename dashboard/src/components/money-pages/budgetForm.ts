// The budget editor's form state and its conversion to and from the API's config.
import type { components } from "../../api/schema";

type Config = components["schemas"]["BudgetConfigResponse"];
type Update = components["schemas"]["BudgetConfigUpdateRequest"];

export interface Row {
  category: string;
  group: string;
  mode: "monthly" | "yearly";
  /** What the person typed, in the row's mode. */
  amount: string;
  /** The annual target the typed amount means. */
  annual: number;
  type: "fixed" | "variable" | "lumpy";
}

const cents = (n: number) => Math.round(n * 100) / 100;

/** The annual amount a typed value means in a mode. */
export function annualOf(mode: Row["mode"], amount: string): number {
  const n = Number(amount);
  if (!Number.isFinite(n) || n < 0) return 0;
  return cents(mode === "monthly" ? n * 12 : n);
}

export function rowsFrom(config: Config): Row[] {
  const groupOf = new Map<string, string>();
  for (const g of config.groups) for (const c of g.categories) groupOf.set(c.toLowerCase(), g.name);
  return Object.entries(config.categories)
    .map(([category, c]) => ({
      category,
      group: groupOf.get(category.toLowerCase()) ?? "",
      mode: c.input_mode,
      amount: String(c.input_mode === "monthly" ? c.monthly_amount : c.target),
      annual: c.target,
      type: c.category_type,
    }))
    .sort((a, b) => a.group.localeCompare(b.group) || a.category.localeCompare(b.category));
}

export function toRequest(
  rows: Row[],
  ceiling: number,
  targetsVersion: number,
  groupsVersion: number,
): Update {
  const categories: Update["categories"] = {};
  const groups = new Map<string, string[]>();
  for (const r of rows) {
    categories[r.category] = { target: r.annual, input_mode: r.mode, category_type: r.type };
    const g = r.group.trim();
    if (g) groups.set(g, [...(groups.get(g) ?? []), r.category]);
  }
  return {
    spending_ceiling: cents(ceiling),
    categories,
    groups: [...groups].map(([name, cats]) => ({ name, categories: cats })),
    targets_version: targetsVersion,
    groups_version: groupsVersion,
  };
}
