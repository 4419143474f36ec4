// The SQL each benchmarked route runs (as drizzle writes it, by hand), timed straight on SQLite as
// the route's floor. Keyed by the route names of bench/queries.mjs. Keep in step with the queries.
const LIVE = "DeletedAt IS NULL AND Ignored = 0";
const SPEND = "TransactionType IN ('purchase','withdrawal','preauth')";
const range = (lo, hi) => `DateFileName >= '${lo}' AND DateFileName < '${hi}'`;
// The newest 1000 matches are picked by rowid from the covering month index, then only they are
// read, and handed over as ONE JSON text (an array per row: the listed columns — transactions/rules.ts
// LISTED, no email text — then the attention flag).
const ALL =
  "ForwardedTo, DateFileName, Date, Amount, Company, Category, Institution, TransactionType, Name, Ignored, Comment, DeletedAt, CategoryAudit, ExtractionAudit, TransactionContext, StatementSource"
    .split(", ")
    .map((c) => `t.${c}`)
    .join(", ");
const rows = (where) =>
  `SELECT '[' || COALESCE(group_concat(j), '') || ']' FROM (SELECT json_array(${ALL}, a.DateFileName IS NOT NULL) j FROM transactions t LEFT JOIN attention_queue a ON a.ForwardedTo = t.ForwardedTo AND a.DateFileName = t.DateFileName WHERE t.rowid IN (SELECT t.rowid FROM transactions t WHERE ${where} ORDER BY t.DateFileName DESC LIMIT 1000) ORDER BY t.DateFileName DESC) r`;
// Rows, then count, total and by-category in one grouped statement (the route since issue 16).
const search = (where) => [
  rows(where),
  `SELECT lower(COALESCE(Category, 'uncategorized')) c, count(*), COALESCE(SUM(Amount), 0) s FROM transactions t WHERE ${where} GROUP BY c ORDER BY s DESC`,
];
const merchant = "lower(trim(COALESCE(Company, '')))";
const category = "lower(COALESCE(NULLIF(trim(Category), ''), 'uncategorized'))";
const key = "lower(trim(COALESCE(Category, 'uncategorized')))";
const y25 = range("2025.01.", "2025.12/");
const MONTHS6 = ["2025.01", "2025.02", "2025.03", "2025.04", "2025.05", "2025.06"];
const WINDOW6 = [0, 1, 2, 3, 4, 5]
  .map(
    (i) => `SUM(CASE WHEN k = '${MONTHS6[i]}' THEN Amount ELSE 0 END) a${i}, SUM(k = '${MONTHS6[i]}') c${i}`,
  )
  .join(", ");
const COLS6 = [0, 1, 2, 3, 4, 5].map((i) => `a${i}, c${i}`).join(", ");
const OUTER6 = [0, 1, 2, 3, 4, 5].map((i) => `COALESCE(SUM(a${i}), 0) a${i}, SUM(c${i}) c${i}`).join(", ");
const named = `${LIVE} AND ${SPEND} AND Company IS NOT NULL AND trim(Company) <> ''`;
const DEPOSIT = "TransactionType IN ('e-transfer','deposit')";
const sumKey = "lower(COALESCE(Category, 'uncategorized'))";

export const FLOORS = {
  "list month (2025-06)": [
    `SELECT '[' || COALESCE(group_concat(j), '') || ']' FROM (SELECT json_array(${ALL}, a.DateFileName IS NOT NULL) j FROM transactions t LEFT JOIN attention_queue a ON a.ForwardedTo = t.ForwardedTo AND a.DateFileName = t.DateFileName WHERE ${range("2025.06.", "2025.06/").replaceAll("DateFileName", "t.DateFileName")} AND t.DeletedAt IS NULL ORDER BY t.DateFileName DESC) r`,
  ],
  "search 12 months, company": search(
    `${y25.replaceAll("DateFileName", "t.DateFileName")} AND t.Company LIKE '%merchant 12%' ESCAPE '\\' AND t.Ignored = 0 AND t.DeletedAt IS NULL`,
  ),
  "search 24 months, category": search(
    `${range("2024.01.", "2025.12/").replaceAll("DateFileName", "t.DateFileName")} AND +t.Category = 'groceries' COLLATE NOCASE AND t.Ignored = 0 AND t.DeletedAt IS NULL`,
  ),
  // No narrowing filter: the rows in date order from idx_transactions_month, handed over as ONE
  // JSON text (an array per row); and the category list.
  "export CSV 12 months": [
    `SELECT '[' || COALESCE(group_concat(j), '') || ']' FROM (SELECT json_array(Date, DateFileName, Company, Amount, Category, Institution, TransactionType, Name, Comment, Ignored, DeletedAt, ForwardedTo) j FROM transactions WHERE ${y25} AND Ignored = 0 AND DeletedAt IS NULL ORDER BY DateFileName) r`,
    "SELECT name FROM categories ORDER BY position, name",
  ],
  // One group per kind, category and company (its rows as "MM",cents), all as one JSON text.
  "income statement (2025)": [
    `SELECT (SELECT '[' || group_concat('[' || income || ',' || json_quote(category) || ',' || json_quote(merchant) || ',' || json_quote(company) || ',[' || cells || ']]') || ']'
       FROM (SELECT (TransactionType IN ('e-transfer','deposit')) income, CASE WHEN TransactionType IN ('e-transfer','deposit') THEN '' ELSE ${category} END category, ${merchant} merchant, MAX(DateFileName), Company company, group_concat(json_quote(substr(DateFileName, 6, 2)) || ',' || COALESCE(Amount, 0)) cells FROM transactions WHERE ${LIVE} AND ${y25} AND TransactionType IN ('purchase','withdrawal','preauth','e-transfer','deposit') GROUP BY 1, 2, 3)) groups,
     (SELECT data FROM budget_config WHERE user_id = 'default' AND year = 2025 AND kind = 'targets') budget`,
  ],
  // Every statement of the route's one batch: the 7-month window by month and category (both
  // months' categories, the anomaly baselines, the pace sums), by company for the month and the one
  // before (spending, deposits; each as one JSON text), and the month's commented spending. (The configuration read that
  // finds the current month is cached by the config service, not a per-request query.)
  "summary (2025-06)": [
    `SELECT substr(DateFileName, 1, 7) m, ${sumKey} k, COALESCE(SUM(Amount), 0), count(*), COALESCE(SUM(CASE WHEN CAST(substr(DateFileName, 9, 2) AS INTEGER) <= 31 THEN Amount ELSE 0 END), 0) FROM transactions WHERE ${range("2024.12.", "2025.06/")} AND ${LIVE} AND ${SPEND} GROUP BY m, k`,
    ...["2025.06", "2025.05"].flatMap((m) =>
      [SPEND, DEPOSIT].map(
        (kind) =>
          `SELECT '[' || COALESCE(group_concat(g), '') || ']' FROM (SELECT json_array(lower(COALESCE(Company, '')), MAX(COALESCE(Company, '(no company)')), MAX(${sumKey}), COALESCE(SUM(Amount), 0), count(*)) g FROM transactions WHERE ${range(`${m}.`, `${m}/`)} AND ${LIVE} AND ${kind} GROUP BY lower(COALESCE(Company, '')) ORDER BY lower(COALESCE(Company, ''))) c`,
      ),
    ),
    `SELECT ${sumKey} k, COALESCE(SUM(Amount), 0), count(*) FROM transactions WHERE ${range("2025.06.", "2025.06/")} AND ${LIVE} AND ${SPEND} AND COALESCE(trim(Comment), '') <> '' GROUP BY k`,
  ],
  // One batch: the budget's items, the year by month and category (its last 6 months are the
  // history), the compare year; 2025 is a past year, so the forecast's recurring charges and this
  // month's arrivals scan an empty range.
  "budget status (2025)": [
    "SELECT kind, data, version, updated_at FROM budget_config WHERE user_id = 'default' AND year = 2025",
    `SELECT substr(DateFileName, 1, 7) mo, ${key} k, COALESCE(SUM(Amount), 0), count(*), COALESCE(SUM(CASE WHEN CAST(substr(DateFileName, 9, 2) AS INTEGER) <= 22 THEN Amount ELSE 0 END), 0) FROM transactions WHERE ${y25} AND ${LIVE} AND ${SPEND} GROUP BY mo, k`,
    `SELECT ${key} k, COALESCE(SUM(Amount), 0) FROM transactions WHERE ${range("2024.01.", "2024.12/")} AND ${LIVE} AND ${SPEND} GROUP BY k`,
    `SELECT ${key} k, ${merchant} c, Amount FROM transactions WHERE ${range("", "")} AND ${LIVE} AND ${SPEND} AND COALESCE(trim(Company), '') <> '' GROUP BY k, c, Amount HAVING COUNT(DISTINCT substr(DateFileName, 1, 7)) >= 3`,
    `SELECT ${key} k, ${merchant} c, Amount FROM transactions WHERE ${range("", "")} AND ${LIVE} AND ${SPEND} GROUP BY k, c, Amount`,
  ],
  // The cache lookup, then the window in one statement handing over one JSON text (the cache row
  // is written after the response).
  "merchants 6 months, uncached": [
    "SELECT value, updated_at FROM kv_state WHERE key = 'merchant_intelligence:2025-06:6'",
    `WITH r AS (SELECT lower(trim(Company)) merchant, ${category} category, DateFileName dfn, Company, Amount, substr(DateFileName, 1, 7) k FROM transactions WHERE ${named} AND ${range("2025.01.", "2025.06/")}),
     g AS (SELECT merchant, category, COUNT(*) n, MAX(dfn) last_seen, trim(Company) company, ${WINDOW6}, group_concat(substr(dfn, 1, 10) || ' ' || Amount, ',') ch FROM r GROUP BY merchant, category),
     p AS (SELECT merchant, MAX(printf('%012d', n) || last_seen || char(1) || category) cat, MAX(last_seen || char(1) || company) name, ${OUTER6}, group_concat(ch, ',') ch FROM g GROUP BY merchant)
     SELECT '[' || COALESCE(group_concat(json_array(merchant, category, company, ch, ${COLS6}, last_total)), '') || ']' FROM (
       SELECT merchant, substr(cat, instr(cat, char(1)) + 1) category, substr(name, instr(name, char(1)) + 1) company, ch, ${COLS6},
         (SELECT COALESCE(SUM(Amount), 0) FROM transactions WHERE ${LIVE} AND ${SPEND} AND ${range("2025.06.", "2025.06/")}) last_total
       FROM (SELECT 1) LEFT JOIN p ON 1 ORDER BY merchant)`,
  ],
};
