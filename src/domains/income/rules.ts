/**
 * Income statement rules (pure): company groups of the year → income, expense sections, net, projection.
 * Amounts are integer cents throughout (projections rounded to the cent); response.ts converts the
 * statement to the API's decimal amounts.
 */
import { type Cents, roundCents, ZERO_CENTS, sumCents, addCents, asCents, subCents } from "../../lib/money";

const SECTION_NAMES: Record<string, string> = {
  fixed: "Fixed costs",
  variable: "Variable spending",
  lumpy: "Lumpy and irregular",
  unbudgeted: "Unbudgeted",
};
const SECTION_ORDER = Object.keys(SECTION_NAMES);
const UNKNOWN_COMPANY = "Unknown";

/**
 * One company's rows of the year within its kind (income) or category (expenses), one group per
 * company key: its latest spelling and each row as a month ('MM') and an amount, flattened.
 */
export interface CompanyGroup {
  merchant: string;
  company: string | null;
  cells: (string | number)[];
  category?: string;
}

interface CompanyRow {
  company: string;
  months: Cents[];
  total: Cents;
}

// Plain loops: these run for every company of every category (thousands per statement).
const zeros = (n: number): Cents[] => new Array<Cents>(n).fill(ZERO_CENTS);
const sum = (xs: readonly Cents[]): Cents => sumCents(xs);
const addInto = (acc: Cents[], xs: readonly Cents[]) => {
  for (let i = 0; i < xs.length; i++) acc[i] = addCents(acc[i] ?? ZERO_CENTS, xs[i]!);
};
// Ties keep the key order (SQL's ORDER BY before the rewrite): compared as plain strings.
const byTotalThen =
  <T extends { total: number }>(key: (x: T) => string) =>
  (a: T, b: T) => {
    if (a.total !== b.total) return b.total - a.total;
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  };

const byCategoryTotal = byTotalThen((c: { category: string; total: number }) => c.category);

/** Per-company monthly rows, largest total first (then by company key); blank names show as Unknown. */
export function companyRows(groups: CompanyGroup[], months: string[]): CompanyRow[] {
  // A group's cells carry the month only ('MM'): `months` is one year's 'YYYY-MM'.
  const pos = new Map(months.map((m, i) => [m.slice(5), i]));
  const list: (CompanyRow & { key: string })[] = [];
  for (const g of groups) {
    const row = zeros(months.length);
    const cells = g.cells;
    for (let j = 0; j + 1 < cells.length; j += 2) {
      const i = pos.get(cells[j] as string);
      // The packed D1 cell is integer cents: the storage boundary.
      if (i !== undefined) row[i] = addCents(row[i]!, asCents(Number(cells[j + 1])));
    }
    const company = g.company?.trim() || UNKNOWN_COMPANY;
    list.push({ company, months: row, total: sum(row), key: g.merchant });
  }
  list.sort(byTotalThen((r) => r.key));
  return list.map(({ company, months: m, total }) => ({ company, months: m, total }));
}

/** Section totals of a set of rows: monthly and annual. */
function totals(rows: { months: Cents[] }[], n: number) {
  const monthly = zeros(n);
  for (const r of rows) addInto(monthly, r.months);
  return { monthly_totals: monthly, annual_total: sum(monthly) };
}

/**
 * Expense categories grouped into sections by the budget's category type (fixed, variable, lumpy);
 * a category without a configured type lands in "unbudgeted". Only populated sections appear.
 */
export function expenseSections(groups: CompanyGroup[], months: string[], types: Record<string, string>) {
  // Appended in place: copying the list on every group was quadratic in a category's groups.
  const byCategory = new Map<string, CompanyGroup[]>();
  for (const g of groups) {
    const key = g.category ?? "uncategorized";
    const list = byCategory.get(key);
    if (list) list.push(g);
    else byCategory.set(key, [g]);
  }
  const categories = [...byCategory].map(([category, rs]) => {
    const companies = companyRows(rs, months);
    const t = totals(companies, months.length);
    return { category, months: t.monthly_totals, total: t.annual_total, companies };
  });
  const sectionOf = (category: string) => {
    const t = types[category];
    return t && t !== "unbudgeted" && SECTION_NAMES[t] ? t : "unbudgeted";
  };
  return SECTION_ORDER.flatMap((type) => {
    const cats = categories.filter((c) => sectionOf(c.category) === type).sort(byCategoryTotal);
    if (cats.length === 0) return [];
    return [
      {
        type_name: type,
        display_name: SECTION_NAMES[type]!,
        categories: cats,
        ...totals(cats, months.length),
      },
    ];
  });
}

/** net ÷ income as a fraction (4 decimals); null when there is no income. */
export const savingsRate = (income: number, net: number): number | null =>
  income > 0 ? Math.round((net / income) * 10000) / 10000 : null;

/** Months of `year` that have begun: 12 for a past year, 0 for a future one. */
export function monthsElapsed(year: number, currentMonth: string): number {
  const [cy, cm] = currentMonth.split("-").map(Number) as [number, number];
  if (year < cy) return 12;
  return year > cy ? 0 : cm;
}

/** Totals of the elapsed months scaled to twelve (0 when none has begun). */
export function annualize(monthly: Cents[], elapsed: number): Cents {
  return roundCents(elapsed > 0 ? (sum(monthly.slice(0, elapsed)) * 12) / elapsed : 0);
}

/** The whole statement; committed_floor is the fixed-costs section annualized. */
export function incomeStatement(input: {
  year: number;
  months: string[];
  income: CompanyGroup[];
  expenses: CompanyGroup[];
  types: Record<string, string>;
  elapsed: number;
}) {
  const { months, elapsed } = input;
  const payers = companyRows(input.income, months);
  const income = { companies: payers, ...totals(payers, months.length) };
  const sections = expenseSections(input.expenses, months, input.types);
  const expenses = totals(
    sections.map((s) => ({ months: s.monthly_totals })),
    months.length,
  );
  const net = months.map((_, i) =>
    subCents(income.monthly_totals[i] ?? ZERO_CENTS, expenses.monthly_totals[i] ?? ZERO_CENTS),
  );
  const netAnnual = subCents(income.annual_total, expenses.annual_total);
  const annualIncome = annualize(income.monthly_totals, elapsed);
  const annualExpenses = annualize(expenses.monthly_totals, elapsed);
  const fixed = sections.find((s) => s.type_name === "fixed");
  return {
    year: input.year,
    months,
    income,
    expense_sections: sections,
    total_expenses_monthly: expenses.monthly_totals,
    total_expenses_annual: expenses.annual_total,
    net_monthly: net,
    net_annual: netAnnual,
    savings_rate_monthly: months.map((_, i) => savingsRate(income.monthly_totals[i] ?? 0, net[i] ?? 0)),
    savings_rate_annual: savingsRate(income.annual_total, netAnnual),
    projection: {
      annualized_income: annualIncome,
      annualized_expenses: annualExpenses,
      annualized_net: subCents(annualIncome, annualExpenses),
      months_elapsed: elapsed,
    },
    committed_floor: fixed ? annualize(fixed.monthly_totals, elapsed) : ZERO_CENTS,
  };
}

/** Lowercased category → category_type from a budget targets document (unknown shapes give {}). */
export function categoryTypes(doc: unknown): Record<string, string> {
  const cats = (doc as { categories?: unknown } | null)?.categories;
  if (!cats || typeof cats !== "object") return {};
  const out: Record<string, string> = {};
  for (const [name, cfg] of Object.entries(cats as Record<string, unknown>)) {
    const t = (cfg as { category_type?: unknown } | null)?.category_type;
    if (typeof t === "string") out[name.toLowerCase()] = t;
  }
  return out;
}
