// The SQL each benchmarked route runs (as drizzle writes it, by hand), timed straight on SQLite as
// the route's floor. Keyed by the route names of bench/queries.mjs. Keep in step with the queries.
const LIVE = "DeletedAt IS NULL AND Ignored = 0";
const SPEND = "TransactionType IN ('purchase','withdrawal','preauth')";
const range = (lo, hi) => `DateFileName >= '${lo}' AND DateFileName < '${hi}'`;
const rows = (where) =>
  `SELECT t.*, (a.DateFileName IS NOT NULL) AS needs_attention FROM transactions t LEFT JOIN attention_queue a ON a.ForwardedTo = t.ForwardedTo AND a.DateFileName = t.DateFileName WHERE ${where} ORDER BY t.DateFileName DESC LIMIT 1000`;
// Rows, then count, total and by-category in one grouped statement (the route since issue 16).
const search = (where) => [
  rows(where),
  `SELECT lower(COALESCE(Category, 'uncategorized')) c, count(*), COALESCE(SUM(Amount), 0) s FROM transactions t WHERE ${where} GROUP BY c ORDER BY s DESC`,
];
const merchant = "lower(trim(COALESCE(Company, '')))";
const category = "lower(COALESCE(NULLIF(trim(Category), ''), 'uncategorized'))";
const key = "lower(trim(COALESCE(Category, 'uncategorized')))";
const y25 = range("2025.01.", "2025.12/");
const WINDOW6 = [0, 1, 2, 3, 4, 5]
  .map((i) => `SUM(CASE WHEN k = ${i} THEN Amount ELSE 0 END) a${i}, SUM(k = ${i}) c${i}`)
  .join(", ");
const OUTER6 = [0, 1, 2, 3, 4, 5].map((i) => `COALESCE(SUM(a${i}), 0) a${i}, SUM(c${i}) c${i}`).join(", ");
const named = `${LIVE} AND ${SPEND} AND Company IS NOT NULL AND trim(Company) <> ''`;

export const FLOORS = {
  "list month (2025-06)": [
    `SELECT * FROM transactions WHERE ${range("2025.06.", "2025.06/")} AND DeletedAt IS NULL ORDER BY DateFileName DESC`,
  ],
  "search 12 months, company": search(
    `${y25.replaceAll("DateFileName", "t.DateFileName")} AND t.Company LIKE '%merchant 12%' ESCAPE '\\' AND t.Ignored = 0 AND t.DeletedAt IS NULL`,
  ),
  "search 24 months, category": search(
    `${range("2024.01.", "2025.12/").replaceAll("DateFileName", "t.DateFileName")} AND t.Category = 'groceries' COLLATE NOCASE AND t.Ignored = 0 AND t.DeletedAt IS NULL`,
  ),
  "export CSV 12 months": [
    `SELECT Date, DateFileName, Company, Amount, Category, Institution, TransactionType, Name, Comment, Ignored, DeletedAt, ForwardedTo FROM transactions WHERE ${y25} AND Ignored = 0 AND DeletedAt IS NULL ORDER BY DateFileName`,
  ],
  "income statement (2025)": [
    `WITH m AS (SELECT (TransactionType IN ('e-transfer','deposit')) income, CASE WHEN TransactionType IN ('e-transfer','deposit') THEN '' ELSE ${category} END category, ${merchant} merchant, substr(DateFileName, 1, 7) ym, COALESCE(SUM(Amount), 0) total, MAX(DateFileName) last_seen, Company company FROM transactions WHERE ${LIVE} AND ${y25} AND TransactionType IN ('purchase','withdrawal','preauth','e-transfer','deposit') GROUP BY 1, 2, 3, 4),
     c AS (SELECT income, category, merchant, json_group_array(ym) yms, json_group_array(total) totals, MAX(last_seen) last_seen, company FROM m GROUP BY income, category, merchant)
     SELECT c.*, (SELECT data FROM budget_config WHERE user_id = 'default' AND year = 2025 AND kind = 'targets') budget FROM (SELECT 1) LEFT JOIN c ON 1 ORDER BY income, category, merchant`,
  ],
  "summary (2025-06)": [
    `SELECT lower(Category) c, SUM(Amount) s, COUNT(*) n FROM transactions WHERE ${range("2025.06.", "2025.06/")} AND ${LIVE} AND ${SPEND} GROUP BY 1`,
  ],
  "budget status (2025)": [
    `SELECT substr(DateFileName, 1, 7) mo, ${key} k, COALESCE(SUM(Amount), 0), count(*), COALESCE(SUM(CASE WHEN CAST(substr(DateFileName, 9, 2) AS INTEGER) <= 22 THEN Amount ELSE 0 END), 0) FROM transactions WHERE ${y25} AND ${LIVE} AND ${SPEND} GROUP BY mo, k`,
    `SELECT ${key} k, COALESCE(SUM(Amount), 0) FROM transactions WHERE ${range("2024.01.", "2024.12/")} AND ${LIVE} AND ${SPEND} GROUP BY k`,
    `SELECT ${key} k, ${merchant} c, Amount FROM transactions WHERE ${range("2025.07.", "2025.12/")} AND ${LIVE} AND ${SPEND} AND COALESCE(trim(Company), '') <> '' GROUP BY k, c, Amount HAVING COUNT(DISTINCT substr(DateFileName, 1, 7)) >= 3`,
    `SELECT ${key} k, ${merchant} c, Amount FROM transactions WHERE ${range("2026.11.", "2026.11/")} AND ${LIVE} AND ${SPEND} GROUP BY k, c, Amount`,
    "SELECT kind, data, version, updated_at FROM budget_config WHERE user_id = 'default' AND year = 2025",
  ],
  "merchants 6 months, uncached": [
    `WITH r AS (SELECT lower(trim(Company)) merchant, ${category} category, DateFileName dfn, Company, Amount, (CAST(substr(DateFileName, 1, 4) AS INTEGER) * 12 + CAST(substr(DateFileName, 6, 2) AS INTEGER) - ${2025 * 12 + 1}) k FROM transactions WHERE ${named} AND ${range("2025.01.", "2025.06/")}),
     g AS (SELECT merchant, category, COUNT(*) n, MAX(dfn) last_seen, trim(Company) company, ${WINDOW6} FROM r GROUP BY merchant, category),
     p AS (SELECT merchant, MAX(printf('%012d', n) || last_seen || char(1) || category) cat, MAX(last_seen || char(1) || company) name, ${OUTER6} FROM g GROUP BY merchant)
     SELECT merchant, substr(cat, instr(cat, char(1)) + 1), substr(name, instr(name, char(1)) + 1), *,
       (SELECT COALESCE(SUM(Amount), 0) FROM transactions WHERE ${LIVE} AND ${SPEND} AND ${range("2025.06.", "2025.06/")})
     FROM (SELECT 1) LEFT JOIN p ON 1 ORDER BY merchant`,
  ],
};
