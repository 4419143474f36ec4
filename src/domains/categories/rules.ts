/** Pure category-list rules: lookup, protection, groups, icons, response assembly. No I/O. */
import { type CategoryRow, defaultRows, MISCELLANEOUS } from "./defaults";
import type { CategoriesManagementResponse, CategoryIconsResponse } from "./schemas";

export const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Miscellaneous is the categorizer's fallback: it can be neither renamed nor deleted. */
export function isProtected(name: string): boolean {
  return sameName(name, MISCELLANEOUS);
}

/** The stored rows, or the defaults while nothing is stored. */
export function effectiveRows(stored: CategoryRow[]): { rows: CategoryRow[]; stored: boolean } {
  return stored.length > 0 ? { rows: stored, stored: true } : { rows: defaultRows(), stored: false };
}

export function findCategory(rows: CategoryRow[], name: string): CategoryRow | undefined {
  return rows.find((r) => sameName(r.name, name));
}

export function nextPosition(rows: CategoryRow[]): number {
  return rows.reduce((max, r) => Math.max(max, r.position), -1) + 1;
}

/** Distinct group names, alphabetical (case-insensitive). */
export function groupsOf(rows: CategoryRow[]): string[] {
  const seen = new Map<string, string>();
  for (const r of rows)
    if (r.group_name && !seen.has(r.group_name.toLowerCase()))
      seen.set(r.group_name.toLowerCase(), r.group_name);
  return [...seen.values()].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }));
}

export function toManaged(rows: CategoryRow[], version: number): CategoriesManagementResponse {
  return {
    categories: rows.map((r) => ({ name: r.name, group: r.group_name ?? null })),
    count: rows.length,
    version,
    groups: groupsOf(rows),
  };
}

export function iconsOf(rows: CategoryRow[], version: number): CategoryIconsResponse {
  const icons: Record<string, string> = {};
  for (const r of rows) if (r.icon) icons[r.name] = r.icon;
  return { icons, version };
}

/** Whether a budget-targets document names the category (any case); unknown shapes say no. */
export function budgetNames(doc: unknown, name: string): boolean {
  if (!doc || typeof doc !== "object") return false;
  const cats = (doc as { categories?: unknown }).categories;
  const keys = cats && typeof cats === "object" && !Array.isArray(cats) ? Object.keys(cats) : [];
  return keys.some((k) => sameName(k, name));
}

/** `If-Match` as a list version: absent → null; a bare or quoted integer → that number. */
export function parseIfMatch(header: string | null | undefined): number | null | "invalid" {
  if (header == null || header.trim() === "" || header.trim() === "*") return null;
  const m = /^(?:W\/)?"?(\d{1,15})"?$/.exec(header.trim());
  return m?.[1] ? Number(m[1]) : "invalid";
}
