/** The income statement leaves the journal here: the rules' cents become the API's decimal amounts. */
import { fromCentsField } from "../../lib/money";
import type { IncomeStatementResponse } from "./schemas";

type Company = IncomeStatementResponse["income"]["companies"][number];
type Section = IncomeStatementResponse["expense_sections"][number];

const many = (xs: readonly number[]) => xs.map(fromCentsField);
const companyOut = (c: Company): Company => ({
  ...c,
  months: many(c.months),
  total: fromCentsField(c.total),
});

const sectionOut = (s: Section): Section => ({
  ...s,
  categories: s.categories.map((c) => ({
    ...c,
    months: many(c.months),
    total: fromCentsField(c.total),
    companies: c.companies.map(companyOut),
  })),
  monthly_totals: many(s.monthly_totals),
  annual_total: fromCentsField(s.annual_total),
});

export const statementOut = (s: IncomeStatementResponse): IncomeStatementResponse => ({
  ...s,
  income: {
    companies: s.income.companies.map(companyOut),
    monthly_totals: many(s.income.monthly_totals),
    annual_total: fromCentsField(s.income.annual_total),
  },
  expense_sections: s.expense_sections.map(sectionOut),
  total_expenses_monthly: many(s.total_expenses_monthly),
  total_expenses_annual: fromCentsField(s.total_expenses_annual),
  net_monthly: many(s.net_monthly),
  net_annual: fromCentsField(s.net_annual),
  projection: {
    ...s.projection,
    annualized_income: fromCentsField(s.projection.annualized_income),
    annualized_expenses: fromCentsField(s.projection.annualized_expenses),
    annualized_net: fromCentsField(s.projection.annualized_net),
  },
  committed_floor: fromCentsField(s.committed_floor),
});
