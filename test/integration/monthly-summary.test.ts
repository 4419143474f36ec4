import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { sendMonthlySummary } from "../../src/domains/summary/monthly";
import worker from "../../src/index";
import { runCron } from "../../src/jobs/cron";
import { fixedClock } from "../../src/lib/clock";
import { recordingNotifier } from "../fixtures/emails/deps";
import { clearTransactions, seedTx } from "../helpers/seed";

describe("monthly summary notification (the 8th, 17:00 UTC)", () => {
  beforeAll(async () => {
    await clearTransactions();
    await seedTx({ DateFileName: "2024.09.10_10.00_a.eml", Amount: 100, Category: "groceries" });
    await seedTx({ DateFileName: "2024.10.02_10.00_b.eml", Amount: 80, Category: "groceries" });
    await seedTx({ DateFileName: "2024.10.05_10.00_c.eml", Amount: 40.5, Category: "dining" });
    await seedTx({ DateFileName: "2024.10.06_10.00_d.eml", Amount: 999, Category: "groceries", Ignored: 1 });
    await seedTx({
      DateFileName: "2024.10.07_10.00_e.eml",
      Amount: 500,
      Category: "income",
      TransactionType: "deposit",
    });
    await seedTx({ DateFileName: "2024.11.01_10.00_f.eml", Amount: 7, Category: "coffee" });
  });

  it("summarizes the previous month through the notifier", async () => {
    const notifier = recordingNotifier();
    const msg = await sendMonthlySummary(env, fixedClock("2024-11-08T17:00:00Z"), notifier);
    expect(notifier.sent).toEqual([msg]);
    expect(msg.kind).toBe("summary");
    expect(msg.title).toBe("October 2024 summary");
    expect(msg.text).toBe(
      "$120.50 spent in 2 transactions (+20.5% vs September)\nTop: groceries $80.00, dining $40.50\nMoney in: $500.00",
    );
  });

  it("a failing provider is logged, not thrown", async () => {
    const notifier = recordingNotifier();
    notifier.fail = true;
    await expect(sendMonthlySummary(env, fixedClock("2024-11-08T17:00:00Z"), notifier)).resolves.toBeTruthy();
  });

  it("is what the monthly cron runs", async () => {
    expect(await runCron("0 17 8 * *", env, fixedClock("2024-11-08T17:00:00Z"))).toContain("summary.monthly");
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "0 17 8 * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
  });
});
