import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { call, expectEnvelope } from "../helpers/http";
import { clearTransactions, seedTx } from "../helpers/seed";

describe("journal", () => {
  beforeAll(async () => {
    await clearTransactions();
    await seedTx({ DateFileName: "2024.05.01_08.00_a.eml", Amount: 10 });
    await seedTx({ DateFileName: "2024.05.01_19.30_b.eml", Amount: 5.25 });
    await seedTx({
      DateFileName: "2024.05.03_12.00_c.eml",
      Amount: 100,
      TransactionType: "e-transfer",
      Category: "income",
    });
    await seedTx({ DateFileName: "2024.05.03_13.00_d.eml", Amount: 30 });
    await seedTx({ DateFileName: "2024.05.04_13.00_e.eml", Amount: 99, Ignored: 1 });
    await seedTx({ DateFileName: "2024.05.04_14.00_f.eml", Amount: 88, DeletedAt: "2024-05-05T00:00:00Z" });
    await seedTx({ DateFileName: "2024.05.31_23.59_g.eml", Amount: 1 });
    await seedTx({ DateFileName: "2024.06.01_00.00_h.eml", Amount: 1000 });
    await env.DB.prepare(
      "INSERT INTO budget_config (user_id, year, kind, data, version, updated_at) VALUES ('default', 2024, 'targets', ?, 1, 'x')",
    )
      .bind(JSON.stringify({ spending_ceiling: 36000, categories: {} }))
      .run();
    await env.DB.prepare(
      "INSERT INTO day_summaries VALUES ('default', '2024-05-03', 'A quiet day.', 'hosted', 'm', 'x')",
    ).run();
  });

  it("groups by day newest first with day totals and a running month-to-date oldest to newest", async () => {
    const res = await call("/api/v1/journal?month=2024-05");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      month: "2024-05",
      month_total: 46.25,
      transaction_count: 5,
      budget_ceiling: 3000,
    });
    const days = res.body.days.map((d: Record<string, unknown>) => [
      d.date,
      d.day_total,
      d.count,
      d.mtd_total,
      d.deposit_total,
    ]);
    expect(days).toEqual([
      ["2024-05-31", 1, 1, 46.25, 0],
      ["2024-05-03", 30, 2, 45.25, 100],
      ["2024-05-01", 15.25, 2, 15.25, 0],
    ]);
    expect(res.body.days[2].transactions.map((t: { date_file_name: string }) => t.date_file_name)).toEqual([
      "2024.05.01_19.30_b.eml",
      "2024.05.01_08.00_a.eml",
    ]);
    expect(res.body.days[2].transactions.map((t: { amount: number }) => t.amount)).toEqual([5.25, 10]);
    expect(res.body.days[1].summary).toBe("A quiet day.");
    expect(res.body.days[0].summary).toBeNull();
  });

  it("no budget → null ceiling; empty month → no days", async () => {
    const res = await call("/api/v1/journal?month=2023-05");
    expect(res.body).toEqual({
      month: "2023-05",
      days: [],
      month_total: 0,
      transaction_count: 0,
      budget_ceiling: null,
    });
  });

  it("reads a targets document stored in cents (marked) like its decimal twin", async () => {
    await env.DB.prepare(
      "INSERT INTO budget_config (user_id, year, kind, data, version, updated_at) VALUES ('default', 2022, 'targets', ?, 1, 'x')",
    )
      .bind(JSON.stringify({ money: "cents", spending_ceiling: 1_000_000, categories: {} }))
      .run();
    // 10,000.00 / 12 = 833.333… → 833.33
    expect((await call("/api/v1/journal?month=2022-06")).body.budget_ceiling).toBe(833.33);
  });

  it("lists saved day summaries", async () => {
    const res = await call("/api/v1/journal/summaries?month=2024-05");
    expect(res.body).toEqual({ month: "2024-05", summaries: { "2024-05-03": "A quiet day." } });
  });

  it("validates month", async () => {
    expectEnvelope(await call("/api/v1/journal?month=May"), 422, "VALIDATION_ERROR");
  });
});
