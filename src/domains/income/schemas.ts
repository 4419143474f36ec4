import { z } from "zod";

export const IncomeStatementQuery = z.object({
  year: z.coerce.number().int().min(2020).max(2099).describe("Calendar year"),
});

const monthly = z.array(z.number()).describe("Twelve values, January first");

export const IncomeCompanyRow = z
  .object({ company: z.string(), months: monthly, total: z.number() })
  .meta({ id: "IncomeCompanyRow" });

export const IncomeSectionResponse = z
  .object({ companies: z.array(IncomeCompanyRow), monthly_totals: monthly, annual_total: z.number() })
  .meta({ id: "IncomeSectionResponse", description: "Deposit types (e-transfer, deposit) by company" });

export const ExpenseCategoryRow = z
  .object({ category: z.string(), months: monthly, total: z.number(), companies: z.array(IncomeCompanyRow) })
  .meta({ id: "ExpenseCategoryRow" });

export const ExpenseSectionResponse = z
  .object({
    type_name: z.string().describe("The budget category type: fixed, variable, lumpy, or unbudgeted"),
    display_name: z.string(),
    categories: z.array(ExpenseCategoryRow),
    monthly_totals: monthly,
    annual_total: z.number(),
  })
  .meta({ id: "ExpenseSectionResponse" });

export const ProjectionResponse = z
  .object({
    annualized_income: z.number(),
    annualized_expenses: z.number(),
    annualized_net: z.number(),
    months_elapsed: z.number().int().describe("Months of the year begun so far (12 for a past year)"),
  })
  .meta({ id: "ProjectionResponse" });

const rate = z.number().nullable().describe("Net ÷ income as a fraction; null without income");

export const IncomeStatementResponse = z
  .object({
    year: z.number().int(),
    months: z.array(z.string()),
    income: IncomeSectionResponse,
    expense_sections: z.array(ExpenseSectionResponse),
    total_expenses_monthly: monthly,
    total_expenses_annual: z.number(),
    net_monthly: monthly,
    net_annual: z.number(),
    savings_rate_monthly: z.array(rate),
    savings_rate_annual: rate,
    projection: ProjectionResponse,
    committed_floor: z.number().describe("The fixed-costs section, annualized"),
  })
  .meta({ id: "IncomeStatementResponse" });
export type IncomeStatementResponse = z.infer<typeof IncomeStatementResponse>;
