/** Budget configuration and groups shapes (named like the reference components). */
import { z } from "zod";

export const CATEGORY_TYPES = ["fixed", "variable", "lumpy"] as const;
const INPUT_MODES = ["monthly", "yearly"] as const;
export const CategoryType = z.enum(CATEGORY_TYPES);
export const InputMode = z.enum(INPUT_MODES);
export type CategoryType = z.infer<typeof CategoryType>;

const MAX_MONEY = 1_000_000_000;
const Money = z.number().min(0, "must not be negative").max(MAX_MONEY, `must be at most ${MAX_MONEY}`);

/** A budget category key: compared case-insensitively and stored lowercased (like transactions). */
const BudgetCategoryName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(60, "must be at most 60 characters")
  .refine((s) => !/\p{Cc}/u.test(s), "must not contain control characters");

/** A record key: validated but not transformed, so keys equal after trim/lowercase are reported, not merged. */
const CategoryKey = z
  .string()
  .max(60, "must be at most 60 characters")
  .refine((s) => s.trim() !== "", "must not be empty")
  .refine((s) => !/\p{Cc}/u.test(s), "must not contain control characters");

export const Year = z.number().int().min(2020).max(2099);
export const YearQuery = z.object({ year: Year });
export const OptionalYearQuery = z.object({
  year: Year.nullable().optional().describe("Defaults to the current year in the configured time zone"),
});

export const BudgetCategoryConfig = z
  .object({
    target: z.number().describe("Annual target"),
    input_mode: InputMode.describe("How the user entered the target; `target` is annual in both modes"),
    monthly_amount: z.number().describe("target / 12, rounded to cents"),
    category_type: CategoryType,
  })
  .meta({ id: "BudgetCategoryConfig" });
export type BudgetCategoryConfig = z.infer<typeof BudgetCategoryConfig>;

export const BudgetCategoryConfigInput = z
  .object({
    target: Money.describe(
      "Annual target, in both input modes (a monthly entry is sent multiplied by 12; monthly_amount = target / 12)",
    ),
    input_mode: InputMode,
    category_type: CategoryType,
  })
  .meta({ id: "BudgetCategoryConfigInput" });

export const BudgetGroupConfig = z
  .object({
    name: z.string().trim().min(1, "must not be empty").max(60, "must be at most 60 characters"),
    categories: z.array(BudgetCategoryName).max(500),
  })
  .meta({ id: "BudgetGroupConfig" });
export type BudgetGroupConfig = z.infer<typeof BudgetGroupConfig>;

const Version = (what: string) =>
  z
    .number()
    .int()
    .min(0)
    .nullable()
    .describe(`The ${what} version this write is based on (null or 0: none exists yet); stale gives 409`);

const Groups = z.array(BudgetGroupConfig).max(100);

export const BudgetConfigUpdateRequest = z
  .object({
    spending_ceiling: Money.describe("Annual spending ceiling for all categories"),
    categories: z.record(CategoryKey, BudgetCategoryConfigInput),
    groups: Groups,
    targets_version: Version("targets"),
    groups_version: Version("groups"),
  })
  .meta({ id: "BudgetConfigUpdateRequest" });
export type BudgetConfigUpdateRequest = z.infer<typeof BudgetConfigUpdateRequest>;

export const BudgetConfigResponse = z
  .object({
    year: z.number().int(),
    spending_ceiling: z.number(),
    categories: z.record(z.string(), BudgetCategoryConfig),
    groups: z.array(BudgetGroupConfig),
    targets_version: z.number().int().describe("0 while no targets were written for the year"),
    groups_version: z.number().int().describe("0 while no groups were written for the year"),
    allocated_total: z.number().describe("Sum of the category targets"),
    unallocated: z.number().describe("spending_ceiling - allocated_total (negative when over-allocated)"),
  })
  .meta({ id: "BudgetConfigResponse" });
export type BudgetConfigResponse = z.infer<typeof BudgetConfigResponse>;

export const GroupsUpdateRequest = z
  .object({ groups: Groups, version: Version("groups") })
  .meta({ id: "GroupsUpdateRequest" });

export const GroupsResponse = z
  .object({ year: z.number().int(), groups: z.array(BudgetGroupConfig), version: z.number().int() })
  .meta({ id: "GroupsResponse" });
export type GroupsResponse = z.infer<typeof GroupsResponse>;

export const HistoricalAveragesQuery = z.object({ months: z.number().int().min(2).max(12).default(6) });

export const HistoricalCategoryAverage = z
  .object({
    monthly_avg: z.number().describe("total / months_analyzed"),
    total: z.number(),
    months_active: z.number().int().describe("Analyzed months with spending in the category"),
    suggested_type: z.string().describe("fixed, variable or lumpy, inferred from the monthly totals"),
    suggested_monthly: z.number(),
    suggested_annual: z.number(),
  })
  .meta({ id: "HistoricalCategoryAverage" });

export const HistoricalAveragesResponse = z
  .object({
    months_analyzed: z.number().int().describe("Months of the window that hold any spending"),
    period: z.record(z.string(), z.string()).describe("`start` and `end` months (YYYY-MM) of the window"),
    categories: z.record(z.string(), HistoricalCategoryAverage),
  })
  .meta({ id: "HistoricalAveragesResponse" });
export type HistoricalAveragesResponse = z.infer<typeof HistoricalAveragesResponse>;
