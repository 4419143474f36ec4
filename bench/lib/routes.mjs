// The read routes the benches time (issue 16's list and the month reads), health first as the baseline.
// Merchant intelligence caches a window for an hour: each sample asks for another month (uncached).
const month = (i) => {
  const k = ((i % 100) + 100) % 100;
  return `${2017 + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, "0")}`;
};

export const ROUTES = [
  ["health", "/api/v1/health"],
  ["list month (2025-06)", "/api/v1/transactions?month=2025-06"],
  ["search 12 months, company", "/api/v1/transactions/search?from=2025-01&to=2025-12&company=merchant%2012"],
  ["search 24 months, category", "/api/v1/transactions/search?from=2024-01&to=2025-12&category=groceries"],
  ["export CSV 12 months", "/api/v1/transactions/export?from=2025-01&to=2025-12"],
  ["income statement (2025)", "/api/v1/income-statement?year=2025"],
  ["summary (2025-06)", "/api/v1/summary?month=2025-06"],
  ["journal (2025-06)", "/api/v1/journal?month=2025-06"],
  ["budget status (2025)", "/api/v1/budget/status?year=2025"],
  ["merchants 6 months, uncached", (i) => `/api/v1/merchants/intelligence?month=${month(i)}&months=6`],
];
