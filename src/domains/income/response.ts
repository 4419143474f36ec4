/** The income statement leaves the journal here: the rules' cents become the API's decimal amounts. */
import { fromCents } from "../../lib/money";
import type { IncomeStatementResponse } from "./schemas";

type Company = IncomeStatementResponse["income"]["companies"][number];
type Section = IncomeStatementResponse["expense_sections"][number];

const many = (xs: readonly number[]) => xs.map(fromCents);
const companyOut = (c: Company): Company => ({ ...c, months: many(c.months), total: fromCents(c.total) });

const sectionOut = (s: Section): Section => ({
  ...s,
  categories: s.categories.map((c) => ({
    ...c,
    months: many(c.months),
    total: fromCents(c.total),
    companies: c.companies.map(companyOut),
  })),
  monthly_totals: many(s.monthly_totals),
  annual_total: fromCents(s.annual_total),
});

export const statementOut = (s: IncomeStatementResponse): IncomeStatementResponse => ({
  ...s,
  income: {
    companies: s.income.companies.map(companyOut),
    monthly_totals: many(s.income.monthly_totals),
    annual_total: fromCents(s.income.annual_total),
  },
  expense_sections: s.expense_sections.map(sectionOut),
  total_expenses_monthly: many(s.total_expenses_monthly),
  total_expenses_annual: fromCents(s.total_expenses_annual),
  net_monthly: many(s.net_monthly),
  net_annual: fromCents(s.net_annual),
  projection: {
    ...s.projection,
    annualized_income: fromCents(s.projection.annualized_income),
    annualized_expenses: fromCents(s.projection.annualized_expenses),
    annualized_net: fromCents(s.projection.annualized_net),
  },
  committed_floor: fromCents(s.committed_floor),
});
