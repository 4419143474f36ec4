/** The category list the model may choose from: the stored list, else SPEC.md's 39 defaults. */
import type { Db } from "../db";
import { categoriesQuery } from "../domains/categories/queries";
import { log } from "../lib/log";

export const DEFAULT_CATEGORIES = [
  "Alcohol",
  "Auto Maintenance",
  "Baby & Kids",
  "Bank Fees",
  "Car Payment",
  "Charitable Giving",
  "Childcare",
  "Clothing",
  "Coffee & Cafes",
  "Education",
  "Entertainment",
  "Fitness",
  "Gasoline",
  "Gifts",
  "Groceries",
  "Health Care",
  "Hobbies",
  "Home Goods",
  "Home Maintenance",
  "Insurance",
  "Internet",
  "Miscellaneous",
  "Mortgage",
  "Moving",
  "Personal Care",
  "Pets",
  "Phone",
  "Professional Services",
  "Public Transit",
  "Rent",
  "Restaurant/Dining",
  "Rideshare & Taxi",
  "Strata/HOA",
  "Subscriptions",
  "Taxes",
  "Technology",
  "Therapy",
  "Travel",
  "Utilities",
] as const;

export const FALLBACK_CATEGORY = "Miscellaneous";

/** The stored list's read (a caller may batch it with its own queries; categoryNames finishes it). */
export { categoriesQuery };

/** The list in effect from the stored rows: the defaults while none is stored, Miscellaneous always. */
export function categoryNames(rows: { name: string }[]): string[] {
  const names = rows.map((r) => r.name).filter(Boolean);
  if (names.length === 0) return [...DEFAULT_CATEGORIES];
  if (!names.some((n) => n.toLowerCase() === "miscellaneous")) names.push(FALLBACK_CATEGORY);
  return names;
}

export async function loadCategories(db: Db): Promise<string[]> {
  try {
    return categoryNames(await categoriesQuery(db));
  } catch (err) {
    log("warn", "categorize.categories_read_failed", { error: String(err) });
    return [...DEFAULT_CATEGORIES];
  }
}
