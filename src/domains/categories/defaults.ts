import { DEFAULT_CATEGORIES } from "../../categorize/categories";
import type { categories } from "../../db/schema";

/**
 * SPEC.md's 39 default categories (the categorizer's own list) with a display group each. They
 * are served until the first write, which stores them (in this order) so the user's list
 * replaces them from then on.
 */
export const MISCELLANEOUS = "Miscellaneous";

const GROUPS: Record<string, readonly string[]> = {
  "Food & Drink": ["Alcohol", "Coffee & Cafes", "Groceries", "Restaurant/Dining"],
  Housing: ["Home Goods", "Home Maintenance", "Mortgage", "Moving", "Rent", "Strata/HOA", "Utilities"],
  Transportation: ["Auto Maintenance", "Car Payment", "Gasoline", "Public Transit", "Rideshare & Taxi"],
  "Health & Wellness": ["Fitness", "Health Care", "Personal Care", "Therapy"],
  Family: ["Baby & Kids", "Childcare", "Education", "Pets"],
  Lifestyle: ["Clothing", "Entertainment", "Gifts", "Hobbies", "Subscriptions", "Technology", "Travel"],
  "Bills & Services": ["Bank Fees", "Insurance", "Internet", "Phone", "Professional Services", "Taxes"],
  Other: ["Charitable Giving", MISCELLANEOUS],
};

const GROUP_OF = new Map(Object.entries(GROUPS).flatMap(([g, names]) => names.map((n) => [n, g] as const)));

export const DEFAULT_CATEGORY_NAMES: readonly string[] = DEFAULT_CATEGORIES;

function defaultGroupOf(name: string): string | null {
  return GROUP_OF.get(name) ?? null;
}

export type CategoryRow = typeof categories.$inferSelect;

/** The defaults as stored rows (alphabetical positions, default groups, no icons). */
export function defaultRows(): CategoryRow[] {
  return DEFAULT_CATEGORY_NAMES.map((name, position) => ({
    name,
    group_name: defaultGroupOf(name),
    icon: null,
    position,
  }));
}
