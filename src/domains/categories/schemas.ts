import { z } from "zod";

/** A category name as sent by a client: trimmed, 1-60 characters, no control characters. */
export const CategoryName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(60, "must be at most 60 characters")
  .refine((s) => !/\p{Cc}/u.test(s), "must not contain control characters");

/** A name for a new or renamed category: also not one of the fixed sub-paths of /categories. */
const NewCategoryName = CategoryName.refine(
  (s) => !["icons", "managed"].includes(s.toLowerCase()),
  "is reserved (a fixed path under /api/v1/categories)",
);

const GroupName = z
  .string()
  .trim()
  .min(1, "must not be empty (send null to clear the group)")
  .max(60, "must be at most 60 characters");

export const CategoriesResponse = z.object({ categories: z.array(z.string()) }).meta({
  id: "CategoriesResponse",
  description: "The category list: the stored list, or the 39 defaults before first use.",
});

export const CategoryWithGroup = z
  .object({ name: z.string(), group: z.string().nullable() })
  .meta({ id: "CategoryWithGroup" });

export const CategoriesManagementResponse = z
  .object({
    categories: z.array(CategoryWithGroup),
    count: z.number().int(),
    version: z.number().int().describe("Bumped by every category write; 0 while the defaults are in use"),
    groups: z.array(z.string()).describe("Distinct group names, alphabetical"),
  })
  .meta({ id: "CategoriesManagementResponse" });
export type CategoriesManagementResponse = z.infer<typeof CategoriesManagementResponse>;

export const CategoryAddRequest = z
  .object({ name: NewCategoryName, group: GroupName.nullable().optional() })
  .strict()
  .meta({ id: "CategoryAddRequest" });

export const CategoryRenameRequest = z
  .object({ new_name: NewCategoryName })
  .strict()
  .meta({ id: "CategoryRenameRequest" });

export const CategoryRenameResponse = z
  .object({
    old_name: z.string(),
    new_name: z.string(),
    transactions_updated: z.number().int(),
    overrides_updated: z.number().int(),
    budget_groups_updated: z.boolean(),
  })
  .meta({ id: "CategoryRenameResponse" });

export const CategoryDeleteQuery = z.object({
  reassign_to: CategoryName.nullable()
    .optional()
    .describe("Category that receives the deleted one's transactions and overrides (default Miscellaneous)"),
});

export const CategoryDeleteResponse = z
  .object({
    deleted_name: z.string(),
    transactions_reassigned: z.number().int(),
    reassigned_to: z.string().nullable().describe("Null when no transaction needed reassigning"),
  })
  .meta({ id: "CategoryDeleteResponse" });

export const CategoryUsageResponse = z
  .object({
    category: z.string(),
    transaction_count: z.number().int(),
    override_count: z.number().int(),
    in_budget: z.boolean(),
    in_group: z.string().nullable(),
  })
  .meta({ id: "CategoryUsageResponse" });

export const CategoryGroupUpdateRequest = z
  .object({ group: GroupName.nullable() })
  .strict()
  .meta({ id: "CategoryGroupUpdateRequest" });

export const CategoryGroupUpdateResponse = z
  .object({ category: z.string(), old_group: z.string().nullable(), new_group: z.string().nullable() })
  .meta({ id: "CategoryGroupUpdateResponse" });

export const CategoryIconsResponse = z
  .object({ icons: z.record(z.string(), z.string()), version: z.number().int() })
  .meta({ id: "CategoryIconsResponse", description: "Category name → icon (emoji or icon name)." });
export type CategoryIconsResponse = z.infer<typeof CategoryIconsResponse>;

export const SetCategoryIconRequest = z
  .object({
    icon: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(64, "must be at most 64 characters")
      .refine((s) => !/\p{Cc}/u.test(s), "must not contain control characters"),
  })
  .strict()
  .meta({ id: "SetCategoryIconRequest" });

export const CategoryNameQuery = z.object({
  name: CategoryName.describe("Category name (case-insensitive key)"),
});

export const CategoryNameParam = z.object({ name: CategoryName });
