import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { bearer, resetState, seedToken } from "../helpers/auth";
import { call } from "../helpers/http";
import { clearTransactions, seedTx } from "../helpers/seed";

const get = (now: string, opts: { headers?: Record<string, string>; env?: Record<string, string> } = {}) =>
  call("/api/v1/coverage", { now, ...opts });
let n = 0;
const email = (
  day: string,
  Institution: string,
  Amount: number,
  TransactionType = "purchase",
  more: Record<string, unknown> = {},
) => seedTx({ DateFileName: `${day}_10.00_alert${++n}.eml`, Institution, Amount, TransactionType, ...more });

/** A statement's reconciled row (what the upload stores), matched or not against a stored row. */
async function statementRow(
  statementId: string,
  institution: string,
  index: number,
  type: "withdrawal" | "deposit",
  tier: string,
  matchedTo: string | null,
) {
  await env.DB.prepare(
    `INSERT OR IGNORE INTO statements (id, filename, file_sha256, r2_key, institution, account_type, uploaded_at, updated_at)
     VALUES (?, 's.pdf', ?, ?, ?, 'chequing', '2024-06-01T00:00:00Z', '2024-06-01T00:00:00Z')`,
  )
    .bind(statementId, statementId, `statements/${statementId}.pdf`, institution)
    .run();
  await env.DB.prepare(
    `INSERT INTO statement_rows (statement_id, tx_index, row_id, date, raw_description, cleaned_description,
       amount, type, reconcile_tier, db_forwarded_to, suggested_category, action)
     VALUES (?, ?, ?, '2024-05-10', 'ROW', 'Row', 1000, ?, ?, ?, 'Miscellaneous', 'skip')`,
  )
    .bind(statementId, index, `sr_${statementId}_${index}`, type, tier, matchedTo)
    .run();
}

describe("coverage", () => {
  beforeAll(async () => {
    await clearTransactions();
    await email("2024.05.01", "RBC", 25, "purchase", { Ignored: 1 });
    await email("2024.05.08", "RBC", 40);
    await email("2024.05.15", "RBC", 10.02);
    await email("2024.05.22", "RBC", 50);
    await email("2024.05.29", "RBC", 7);
    await email("2024.06.04", "RBC", 1, "purchase", { DeletedAt: "2024-06-04T12:00:00Z" });
    await email("2024.05.10", "Simplii", 100, "e-transfer");
    await email("2024.05.12", "Simplii", 60, "e-transfer");
    await email("2023.10.01", "MBNA", 5);
  });
  afterAll(resetState);

  it("models each institution's alert cadence; capture is null without statement rows", async () => {
    const res = await get("2024-06-05T19:00:00Z");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      capture: null,
      window_months: 6,
      checked_at: "2024-06-05T19:00:00.000Z",
    });
    expect(res.body.institutions).toEqual([
      {
        institution: "MBNA",
        status: "irregular",
        last_seen_at: "2023-10-01",
        days_since_last_seen: 248,
        median_gap_days: null,
        threshold_gap_days: null,
        dormant_cutoff_days: null,
        event_days: 0,
      },
      {
        institution: "RBC",
        status: "active",
        last_seen_at: "2024-05-29",
        days_since_last_seen: 7,
        median_gap_days: 7,
        threshold_gap_days: 14,
        dormant_cutoff_days: 42,
        event_days: 5,
      },
      {
        institution: "Simplii",
        status: "irregular",
        last_seen_at: "2024-05-12",
        days_since_last_seen: 24,
        median_gap_days: null,
        threshold_gap_days: null,
        dormant_cutoff_days: null,
        event_days: 2,
      },
    ]);
  });

  it("status moves active → quiet → dormant with silence, counted in the configured timezone", async () => {
    const rbc = async (now: string, tz?: string) =>
      (await get(now, tz ? { env: { DEFAULT_TIMEZONE: tz } } : {})).body.institutions.find(
        (i: { institution: string }) => i.institution === "RBC",
      );
    // 2024-06-13T05:00Z is still June 12 in Los Angeles (14 days) but June 13 in UTC (15 days).
    expect(await rbc("2024-06-13T05:00:00Z")).toMatchObject({ status: "active", days_since_last_seen: 14 });
    expect(await rbc("2024-06-13T05:00:00Z", "UTC")).toMatchObject({
      status: "quiet",
      days_since_last_seen: 15,
    });
    expect((await rbc("2024-07-10T19:00:00Z")).status).toBe("quiet");
    expect(await rbc("2024-07-11T19:00:00Z")).toMatchObject({ status: "dormant", days_since_last_seen: 43 });
  });

  it("capture rate: a statement's reconciled rows an alert email had caught (SPEC CaptureSummary)", async () => {
    const ALERT = "me@example.com";
    await statementRow("stmt_rbc", "RBC", 0, "withdrawal", "matched", ALERT); // caught
    await statementRow("stmt_rbc", "RBC", 1, "withdrawal", "ambiguous", ALERT); // caught
    await statementRow("stmt_rbc", "RBC", 2, "withdrawal", "matched", "manual@finance-journal.local"); // hand-added
    await statementRow(
      "stmt_rbc",
      "RBC",
      3,
      "withdrawal",
      "suspected_duplicate",
      "statement@finance-journal.local",
    );
    await statementRow("stmt_rbc", "RBC", 4, "withdrawal", "new", null);
    await statementRow("stmt_rbc", "RBC", 5, "withdrawal", "previously_imported", null); // another statement's
    await statementRow("stmt_rbc", "RBC", 6, "deposit", "suspected_duplicate", ALERT); // caught
    await statementRow("stmt_simplii", "Simplii", 0, "deposit", "new", null);

    const { body } = await get("2024-06-05T19:00:00Z");
    expect(body.capture).toEqual({
      overall: { caught: 3, total: 7, rate: 0.4286 },
      by_institution: [
        { institution: "RBC", caught: 3, total: 6, rate: 0.5 },
        { institution: "Simplii", caught: 0, total: 1, rate: 0 },
      ],
      by_type: [
        { type: "deposit", caught: 1, total: 2, rate: 0.5 },
        { type: "withdrawal", caught: 2, total: 5, rate: 0.4 },
      ],
    });
    // Statement rows are not alerts: RBC's cadence counts its alert days only (the deleted one not).
    const rbc = body.institutions.find((i: { institution: string }) => i.institution === "RBC");
    expect(rbc.event_days).toBe(5);
    // D1 round trips: auth, then the alert days and the capture rows in ONE batch.
    const counter = countingD1(env.DB);
    const again = await call("/api/v1/coverage", { now: "2024-06-05T19:00:00Z", env: { DB: counter.db } });
    expect(again.body).toEqual(body);
  });

  it("a read token may GET it", async () => {
    const { token } = await seedToken("read");
    expect((await get("2024-06-05T19:00:00Z", { headers: bearer(token) })).status).toBe(200);
  });
});
