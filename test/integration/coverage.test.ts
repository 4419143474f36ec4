import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/** A statement-imported row: synthetic key and a StatementSource (seedTx has no such column). */
async function statement(
  day: string,
  Institution: string,
  Amount: number,
  TransactionType: string,
  more: Record<string, unknown> = {},
) {
  const dfn = `${day}_00.00_stmt_${Institution.toLowerCase()}_${String(++n).padStart(8, "0")}.pdf`;
  await seedTx({
    DateFileName: dfn,
    Institution,
    Amount,
    TransactionType,
    Company: "STATEMENT ROW",
    ...more,
  });
  await env.DB.prepare("UPDATE transactions SET StatementSource = ? WHERE DateFileName = ?")
    .bind(`${Institution}.pdf`, dfn)
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

  it("capture rate: same day, amount within 0.01, same direction; one email catches one row", async () => {
    await statement("2024.05.01", "RBC", 25, "withdrawal"); // caught (by an ignored alert)
    await statement("2024.05.08", "RBC", 40.01, "withdrawal"); // caught: 0.01 apart
    await statement("2024.05.15", "RBC", 10, "withdrawal"); // missed: 0.02 apart
    await statement("2024.05.22", "RBC", 50, "deposit"); // missed: opposite direction
    await statement("2024.05.29", "RBC", 7, "withdrawal"); // two identical rows, one alert:
    await statement("2024.05.29", "RBC", 7, "withdrawal"); //   one caught, one missed
    await statement("2024.06.04", "RBC", 1, "withdrawal", { DeletedAt: "2024-06-05T00:00:00Z" }); // not counted
    await statement("2024.06.04", "RBC", 1, "withdrawal"); // missed: the alert that day was deleted
    await statement("2024.05.10", "Simplii", 100, "deposit"); // caught by the e-transfer alert
    await statement("2024.05.11", "Simplii", 60, "deposit"); // missed: the alert came a day later
    // An alert row enriched from a statement is itself caught.
    await email("2024.05.03", "RBC", 12, "purchase");
    await env.DB.prepare(
      "UPDATE transactions SET StatementSource = 'RBC.pdf' WHERE DateFileName LIKE '2024.05.03_%'",
    ).run();

    const { body } = await get("2024-06-05T19:00:00Z");
    expect(body.capture).toEqual({
      overall: { caught: 5, total: 10, rate: 0.5 },
      by_institution: [
        { institution: "RBC", caught: 4, total: 8, rate: 0.5 },
        { institution: "Simplii", caught: 1, total: 2, rate: 0.5 },
      ],
      by_type: [
        { type: "deposit", caught: 1, total: 3, rate: 0.3333 },
        { type: "withdrawal", caught: 4, total: 7, rate: 0.5714 },
      ],
    });
    // Statement rows are not alerts: RBC's cadence gains only the enriched alert day.
    const rbc = body.institutions.find((i: { institution: string }) => i.institution === "RBC");
    expect(rbc.event_days).toBe(6);
  });

  it("a read token may GET it", async () => {
    const { token } = await seedToken("read");
    expect((await get("2024-06-05T19:00:00Z", { headers: bearer(token) })).status).toBe(200);
  });
});
