/**
 * Issue 36, point 2: every operation whose cost grows with the journal, at ten times a heavy
 * household, under D1's production limits and the Paid plan's per-invocation budget — the same
 * wrapper as `npm test` (test/helpers/limits.ts): every request and every queued step is one invocation.
 * Seeds HOUSEHOLD_ROWS transactions over 2016–2025 (default 1,000,000: ~8,300 a month, ~100,000 a
 * year), 1,000 receipts in one year and uploads a 10,000-row CSV statement, then drives the reads
 * with their heaviest parameters and every input list and string at its schema's maximum, and the
 * bulk work (backup, tax pack) through every bounded step the queue would run. Prints, per limit,
 * the largest value any operation reached, and fails on a breach or a non-2xx answer.
 *   npm run bench:household            (HOUSEHOLD_ROWS=100000 for a short run)
 */
import { createExecutionContext, createMessageBatch, env, waitOnExecutionContext } from "cloudflare:test";
import { expect, it } from "vitest";
import { createApp } from "../src/app";
import type { Env } from "../src/env";
import { consume } from "../src/jobs/consumer";
import type { QueueMessage } from "../src/jobs/messages";
import { normalizeMerchant } from "../src/categorize/normalize";
import { fixedClock } from "../src/lib/clock";
import { resetState } from "../test/helpers/auth";
import { seedReceipts } from "../test/helpers/seed";
import { PLAN_LIMITS, peakReport, perInvocation, takeBreaches, unlimitedDB } from "../test/helpers/limits";

const ROWS = Number((env as unknown as { HOUSEHOLD_ROWS?: string }).HOUSEHOLD_ROWS || 1_000_000);
const RECEIPTS = 1_000;
const STATEMENT_ROWS = 10_000;
const NOW = "2025-12-20T12:00:00.000Z";
const HALF = PLAN_LIMITS.paid.operations / 2;

/** `rows` transactions over 2016-01-01 … 2025-12-31 in chunks of 100,000 (raw binding: setup, not a request). */
async function seedJournal(rows: number) {
  const db = unlimitedDB();
  const span = 10 * 365 * 86_400; // seconds
  for (let from = 0; from < rows; from += 100_000) {
    const n = Math.min(100_000, rows - from);
    await db
      .prepare(
        `WITH RECURSIVE i(n) AS (SELECT ?1 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < ?1 + ?2),
         t(n, at) AS (SELECT n, datetime(1451606400 + (n * 829267751 % ?3), 'unixepoch') FROM i)
         INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, UserId, Institution, Amount,
           Company, TransactionType, Category, Date, Ignored, DeletedAt, Comment, CreatedAt)
         SELECT 'bench@example.com',
           strftime('%Y.%m.%d_%H.%M_', at) || printf('%08x', n) || '.eml', 'h' || n, 'default',
           CASE n % 5 WHEN 0 THEN 'RBC' WHEN 1 THEN 'CIBC' WHEN 2 THEN 'MBNA' WHEN 3 THEN 'Simplii' ELSE 'PC Financial' END,
           300 + (n * 104729 % 40000),
           'Merchant ' || (n % 400) || CASE n % 4 WHEN 0 THEN ' Store' WHEN 1 THEN ' Cafe' WHEN 2 THEN ' Market' ELSE ' Online' END,
           CASE WHEN n % 7 = 6 THEN 'e-transfer' WHEN n % 7 = 5 THEN 'withdrawal' ELSE 'purchase' END,
           CASE WHEN n % 7 = 6 THEN 'income' ELSE
             CASE n % 10 WHEN 0 THEN 'groceries' WHEN 1 THEN 'restaurant/dining' WHEN 2 THEN 'gasoline'
               WHEN 3 THEN 'coffee & cafes' WHEN 4 THEN 'utilities' WHEN 5 THEN 'subscriptions'
               WHEN 6 THEN 'home goods' WHEN 7 THEN 'travel' WHEN 8 THEN 'health care' ELSE 'entertainment' END END,
           strftime('%m/%d/%Y', at) || ' 10:00 PST',
           CASE WHEN n % 50 = 0 THEN 1 ELSE 0 END,
           CASE WHEN n % 100 = 1 THEN '2020-01-01T00:00:00Z' END,
           CASE WHEN n % 33 = 2 THEN 'note' END,
           strftime('%Y-%m-%dT%H:%M:%fZ', at)
         FROM t`,
      )
      .bind(from, n, span)
      .run();
  }
}

/** `count` receipts in 2025 (rows linked to March transactions, a small object each). */
async function seedReceiptYear(count: number) {
  const db = unlimitedDB();
  await db
    .prepare(
      `WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < ?)
       INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, Amount, Category, CategoryAudit,
         TransactionType, Company, CreatedAt)
       SELECT 'me@x', '2025.03.01_10.00_r' || substr('0000' || n, -5) || '.eml', 'r' || n, 1000 + n, 'Health Care',
         '{"source":"override"}', 'purchase', 'Clinic ' || n, '2025-03-01T10:00:00.000Z' FROM i`,
    )
    .bind(count)
    .run();
  await seedReceipts(db, count, "r");
}

/** A CSV statement of `rows` rows in 2025-11 (a header the CSV reader knows). */
function statementCsv(rows: number): string {
  const lines = ["Date,Description,Amount"];
  for (let i = 0; i < rows; i++)
    lines.push(
      `2025-11-${String(1 + (i % 28)).padStart(2, "0")},SHOP ${i % 997} #${i},-${(1 + (i % 300)).toFixed(2)}`,
    );
  return `${lines.join("\n")}\n`;
}

interface Row {
  op: string;
  status: number;
  ms: number;
  d1: number;
  ops: number;
}

it(
  `every operation at ${ROWS.toLocaleString("en")} rows stays within D1's limits and half the Paid budget`,
  async () => {
    await resetState();
    const t0 = Date.now();
    await seedJournal(ROWS);
    await seedReceiptYear(RECEIPTS);
    console.log(`seeded ${ROWS} rows + ${RECEIPTS} receipts in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const rows: Row[] = [];
    const failing: string[] = [];
    const sent: QueueMessage[] = [];
    const queue = { send: async (m: QueueMessage) => void sent.push(m) } as unknown as Queue<unknown>;
    const app = createApp({ clock: fixedClock(NOW) });
    /** One request: one invocation, counted against the plan and D1's limits. */
    const req = async (
      op: string,
      path: string,
      opts: { method?: string; body?: unknown; form?: FormData } = {},
    ) => {
      const t = Date.now();
      const inv = perInvocation({ ...env, JOBS: queue } as Env);
      const headers: Record<string, string> = opts.body ? { "content-type": "application/json" } : {};
      let status = 0;
      let body: Record<string, unknown> | undefined;
      try {
        const ctx = createExecutionContext();
        const res = await app.fetch(
          new Request(`http://localhost${path}`, {
            method: opts.method ?? "GET",
            headers,
            body: opts.form ?? (opts.body ? JSON.stringify(opts.body) : undefined),
          }),
          inv.env,
          ctx,
        );
        const text = await res.text();
        await waitOnExecutionContext(ctx);
        status = res.status;
        if (status >= 300) failing.push(`${op}: ${status} ${text.slice(0, 200)}`);
        else if (res.headers.get("content-type")?.includes("json")) body = JSON.parse(text);
      } catch (e) {
        failing.push(`${op}: ${String(e).slice(0, 300)}`);
      }
      for (const b of takeBreaches()) failing.push(`${op}: ${b.limit} ${b.value} > ${b.max}`);
      rows.push({ op, status, ms: Date.now() - t, d1: inv.counts.d1Queries, ops: inv.counts.operations });
      return body;
    };
    /** Every queued step, each its own invocation through the real consumer. */
    const drain = async (what: string) => {
      let steps = 0;
      let worst = 0;
      const t = Date.now();
      while (sent.length) {
        const msg = sent.shift()!;
        const inv = perInvocation({ ...env, JOBS: queue } as Env);
        try {
          await consume(
            createMessageBatch("finance-journal-jobs", [
              { id: `s${steps}`, timestamp: new Date(), attempts: 1, body: msg },
            ]),
            inv.env,
          );
        } catch (e) {
          failing.push(`${what} step ${steps}: ${String(e).slice(0, 300)}`);
        }
        for (const b of takeBreaches())
          failing.push(`${what} step ${steps}: ${b.limit} ${b.value} > ${b.max}`);
        steps++;
        worst = Math.max(worst, inv.counts.operations);
        if (inv.counts.operations > HALF)
          failing.push(`${what} step ${steps}: ${inv.counts.operations} operations > ${HALF}`);
      }
      rows.push({
        op: `${what}: ${steps} steps (worst step)`,
        status: 0,
        ms: Date.now() - t,
        d1: 0,
        ops: worst,
      });
    };

    const long = (n: number, c = "x") => c.repeat(n);
    const list = (n: number, len: number, tag: string) =>
      Array.from({ length: n }, (_, i) => `${tag}${i}${long(len)}`.slice(0, len));
    const months24 = { from: "2024-01", to: "2025-12" };

    await req("journal (densest month)", "/api/v1/journal?month=2025-03");
    await req("transactions", "/api/v1/transactions?month=2025-03");
    await req("transactions/all", "/api/v1/transactions/all?month=2025-03");
    await req("attention", "/api/v1/transactions/attention?month=2025-03");
    await req("trash", "/api/v1/transactions/trash?month=2020-01");
    await req("latest", "/api/v1/transactions/latest?month=2025-12");
    await req(
      "bulk (12 months)",
      `/api/v1/transactions/bulk?months=${Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, "0")}`).join(",")}`,
    );
    await req(
      "search 24 months, broad",
      `/api/v1/transactions/search?from=${months24.from}&to=${months24.to}&q=Merchant`,
    );
    await req(
      "search every string at max",
      `/api/v1/transactions/search?from=${months24.from}&to=${months24.to}&q=${long(200, "a")}&company=${long(200, "b")}&category=${long(100, "c")}&institution=${long(100, "d")}&type=${long(40, "e")}`,
    );
    await req("search-by-filter every list at max", "/api/v1/transactions/search-by-filter", {
      method: "POST",
      body: {
        from_month: months24.from,
        to_month: months24.to,
        merchant_in: list(50, 200, "Merchant "),
        category_in: list(50, 100, "c"),
        institution_in: list(50, 100, "i"),
        type_in: list(10, 40, "t"),
        min_amount: 0,
        max_amount: 1_000_000,
        include_ignored: true,
        include_deleted: true,
      },
    });
    await req("CSV export 24 months", `/api/v1/transactions/export?from=${months24.from}&to=${months24.to}`);
    await req("summary", "/api/v1/summary?month=2025-03");
    await req("summary trend 12", "/api/v1/summary/trend?months=12&end_month=2025-12");
    await req("merchants 24 months", "/api/v1/merchants/intelligence?month=2025-12&months=24");
    await req("insights context", "/api/v1/insights/context?month=2025-03");
    await req("income statement", "/api/v1/income-statement?year=2025");
    await req("coverage", "/api/v1/coverage");
    await req("budget status", "/api/v1/budget/status?year=2025");
    await req("historical averages 12", "/api/v1/budget/historical-averages?months=12");
    await req("override suggestions", "/api/v1/overrides/suggestions?months=12");
    await req("ignore suggestions", "/api/v1/ignore-rules/suggestions?months=12");
    await req("duplicates", "/api/v1/overrides/duplicates");
    await req("category usage", "/api/v1/categories/groceries/usage");
    await req("health", "/api/v1/health");
    await req("setup status", "/api/v1/setup/status");
    await req("activity", "/api/v1/activity");
    await req("tax pack", "/api/v1/tax-pack?year=2025");

    const fd = new FormData();
    fd.append("file", new File([statementCsv(STATEMENT_ROWS)], "big.csv", { type: "text/csv" }));
    const uploaded = await req(`statement upload (${STATEMENT_ROWS} rows)`, "/api/v1/statements/upload", {
      method: "POST",
      form: fd,
    });

    // Writes whose every input list is at its schema's maximum.
    const { results: picked } = await unlimitedDB()
      .prepare(
        "SELECT ForwardedTo AS f, DateFileName AS d FROM transactions WHERE DateFileName LIKE '2024.03.%' LIMIT 1000",
      )
      .all<{ f: string; d: string }>();
    await req("bulk category, 1,000 updates", "/api/v1/transactions/bulk", {
      method: "PATCH",
      body: {
        updates: picked.map((t) => ({ forwarded_to: t.f, date_file_name: t.d, category: "groceries" })),
      },
    });
    // 200 spellings of one merchant (store numbers), each with an override.
    const members = Array.from({ length: 200 }, (_, i) => `Corner Cafe #${1000 + i}`);
    const key = normalizeMerchant(members[0]!);
    if (members.some((m) => normalizeMerchant(m) !== key))
      failing.push(`the 200 spellings do not share ${key}`);
    for (const m of members)
      await req("(setup) an override", `/api/v1/overrides/${encodeURIComponent(m)}`, {
        method: "PUT",
        body: { category: "groceries" },
      });
    rows.splice(-members.length);
    await req("consolidate 200 merchants", "/api/v1/overrides/consolidate", {
      method: "POST",
      body: {
        normalized_key: key,
        canonical_company: "Corner Cafe",
        category: "groceries",
        members,
      },
    });
    const stmt = uploaded?.statement_id as string | undefined;
    if (stmt) {
      const updates = Array.from({ length: 2000 }, (_, i) => ({
        tx_index: i,
        action: "import",
        category: "groceries",
      }));
      await req("statement rows, 2,000 updates", `/api/v1/statements/${stmt}/transactions`, {
        method: "PATCH",
        body: { updates },
      });
      await req("statement import, 2,000 actions", "/api/v1/statements/import", {
        method: "POST",
        body: {
          statement_id: stmt,
          actions: updates.map(({ tx_index, ...a }) => ({ index: tx_index, ...a })),
        },
      });
    } else failing.push(`statement upload gave no statement_id: ${JSON.stringify(uploaded).slice(0, 200)}`);
    await req("budget: 100 groups", "/api/v1/budget/config?year=2025", {
      method: "PUT",
      body: {
        spending_ceiling: 48000,
        categories: {},
        groups: Array.from({ length: 100 }, (_, g) => ({
          name: `Group ${g}`,
          categories: Array.from({ length: 5 }, (_, k) => `cat ${g}-${k}`),
        })),
        targets_version: null,
        groups_version: null,
      },
    });

    await req("tax-pack zip (1,000 receipts)", "/api/v1/tax-pack/export?year=2025");
    await drain("tax-pack zip");
    const tax = await req("tax-pack build status", "/api/v1/tax-pack/export/jobs/current");
    if (tax?.status !== "done") failing.push(`tax-pack build ended ${JSON.stringify(tax).slice(0, 200)}`);
    await req("tax mapping, 50 lines", "/api/v1/tax-pack/mapping", {
      method: "PUT",
      body: {
        lines: Array.from({ length: 50 }, (_, i) => ({
          key: `line_${i}`,
          label: `Line ${i}`,
          categories: [`cat ${i}`],
        })),
      },
    });

    if ((env as unknown as { HOUSEHOLD_EXPORT?: string }).HOUSEHOLD_EXPORT !== "0") {
      await req("backup export", "/api/v1/data/export");
      await drain("backup export");
      const bk = await req("backup build status", "/api/v1/data/export/jobs/current");
      if (bk?.status !== "done") failing.push(`backup build ended ${JSON.stringify(bk).slice(0, 200)}`);
    }

    console.log(
      `\nAt ${ROWS.toLocaleString("en")} rows (wall ms, D1 queries, operations of the invocation, status):\n${rows
        .map(
          (r) =>
            `${String(r.ms).padStart(7)} ms ${String(r.d1).padStart(4)} q ${String(r.ops).padStart(4)} ops  ${r.status || ""} ${r.op}`,
        )
        .join("\n")}\n\nLargest value each limit met:\n${peakReport().join("\n")}`,
    );
    expect(failing).toEqual([]);
  },
  60 * 60_000,
);
