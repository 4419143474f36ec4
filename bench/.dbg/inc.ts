import { DatabaseSync } from "node:sqlite";
import { incomeStatement, categoryTypes } from "../../src/domains/income/rules";
import { statementOut } from "../../src/domains/income/response";
const db = new DatabaseSync(process.argv[2], { readOnly: true });
const LIVE = "DeletedAt IS NULL AND Ignored = 0", y25 = "DateFileName >= '2025.01.' AND DateFileName < '2025.12/'";
const merchant = "lower(trim(COALESCE(Company, '')))", category = "lower(COALESCE(NULLIF(trim(Category), ''), 'uncategorized'))";
const q = `SELECT (TransactionType IN ('e-transfer','deposit')) income, CASE WHEN TransactionType IN ('e-transfer','deposit') THEN '' ELSE ${category} END category, ${merchant} merchant, substr(DateFileName, 1, 7) ym, COALESCE(SUM(Amount), 0) total, MAX(DateFileName) last_seen, Company company FROM transactions WHERE ${LIVE} AND ${y25} AND TransactionType IN ('purchase','withdrawal','preauth','e-transfer','deposit') GROUP BY 1,2,3,4 ORDER BY 1,2,3,4`;
const t0 = performance.now();
const groups = db.prepare(q).all() as any[];
const t1 = performance.now();
const months = Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, "0")}`);
const mins: Record<string, number> = {};
for (let k = 0; k < 40; k++) {
  const a = performance.now();
  const income: any[] = [], expenses: any[] = [];
  for (const g of groups) (g.income ? income : expenses).push(g);
  const b = performance.now();
  const st = incomeStatement({ year: 2025, months, income, expenses, types: categoryTypes(null), elapsed: 12 });
  const c = performance.now();
  const out = statementOut(st as any);
  const d = performance.now();
  const json = JSON.stringify(out);
  const e = performance.now();
  for (const [n, v] of Object.entries({ split: b - a, rules: c - b, out: d - c, json: e - d })) mins[n] = Math.min(mins[n] ?? 1e9, v);
}
console.log(Object.entries(mins).map(([k, v]) => `${k} ${v.toFixed(2)}`).join('  '));
