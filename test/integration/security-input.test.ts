// Issue 11 item 7: impossible dates, amounts that round to 0, and user ids that would reach R2 keys.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { resetState } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { clearTransactions, seedTx } from "../helpers/seed";

const manual = (body: Record<string, unknown>) =>
  call("/api/v1/transactions", {
    method: "POST",
    body: {
      date: "2024-02-28",
      amount: 12.5,
      company: "Corner Store",
      transaction_type: "purchase",
      ...body,
    },
  });

beforeEach(async () => {
  await resetState();
  await clearTransactions();
});

describe("typed dates", () => {
  it("rejects impossible calendar dates with 422 (today 2024-02-30 is stored as March 1)", async () => {
    for (const date of ["2024-02-30", "2023-02-29", "2024-04-31", "2024-13-01", "2024-00-10"]) {
      const res = expectEnvelope(await manual({ date }), 422, "VALIDATION_ERROR");
      expect(JSON.stringify(res.details), date).toContain("date");
    }
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first();
    expect(n).toEqual({ n: 0 });
    expect((await manual({ date: "2024-02-29" })).status).toBeLessThan(300);
  });
});

describe("amounts that round to 0", () => {
  it("manual add: 0.004 is 422, 0.005 rounds to 0.01 and is kept", async () => {
    expectEnvelope(await manual({ amount: 0.004 }), 422, "VALIDATION_ERROR");
    const ok = await manual({ amount: 0.005 });
    expect(ok.status, ok.text).toBeLessThan(300);
  });

  it("fields edit: an amount that rounds to 0 is 422 and the row keeps its amount", async () => {
    const tx = await seedTx({ DateFileName: "2024-03-01T10:00:00.000Z", Amount: 20 });
    const res = await call(`/api/v1/transactions/${tx}/fields`, { method: "PUT", body: { amount: 0.001 } });
    expectEnvelope(res, 422, "VALIDATION_ERROR");
    const row = await env.DB.prepare("SELECT Amount FROM transactions").first();
    expect(row).toEqual({ Amount: 2000 });
  });
});

describe("user_id", () => {
  it("config refuses a user_id outside the safe charset (422) and keeps the stored one", async () => {
    for (const user_id of [
      "../../other",
      "a/b",
      "x\u202Ey",
      "with space",
      ".hidden",
      "a..b",
      "é".repeat(3),
    ]) {
      const res = await call("/api/v1/config", { method: "PUT", body: { user_id } });
      expectEnvelope(res, 422, "VALIDATION_ERROR");
    }
    expect((await call("/api/v1/config")).body.user_id).toBe("default");
    const ok = await call("/api/v1/config", { method: "PUT", body: { user_id: "alex.m@example.com" } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.user_id).toBe("alex.m@example.com");
  });

  it("a user id from the deployment is encoded where it becomes an R2 key", async () => {
    await env.DB.prepare("DELETE FROM budget_config").run();
    const res = await call("/api/v1/budget/config?year=2024", {
      method: "PUT",
      env: { DEFAULT_USER_ID: "../escape" },
      now: "2024-03-15T20:00:00Z",
      body: {
        spending_ceiling: 100,
        categories: {},
        groups: [],
        targets_version: null,
        groups_version: null,
      },
    });
    expect(res.status, res.text).toBe(200);
    const keys = (await env.FILES.list({ prefix: "backups/config/budget/" })).objects.map((o) => o.key);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).not.toContain("/../");
      expect(key.startsWith("backups/config/budget/..%2Fescape/")).toBe(true);
    }
  });
});
