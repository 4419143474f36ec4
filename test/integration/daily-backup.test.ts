import { env } from "cloudflare:test";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { dailyBackup, KEEP_DAILY } from "../../src/domains/data/daily";
import { runBuildStep, STEP } from "../../src/domains/data/export-steps";
import { zipBuildStatus } from "../../src/domains/data/zip-build";
import type { QueueMessage } from "../../src/jobs/messages";
import { runCron } from "../../src/jobs/cron";
import { fixedClock } from "../../src/lib/clock";
import { call } from "../helpers/http";
import { seedTx } from "../helpers/seed";

describe("daily backup to R2", () => {
  it("does nothing until object_backup_enabled", async () => {
    expect(await dailyBackup(env, fixedClock("2026-01-01T03:30:00Z"))).toBeNull();
    expect((await env.FILES.list({ prefix: "backups/daily/" })).objects).toEqual([]);
  });

  it("writes the export zip under the prefix and keeps the newest 30", async () => {
    await seedTx({ DateFileName: "2025.12.31_10.00_a.eml", Amount: 12 });
    await call("/api/v1/config", {
      method: "PUT",
      body: { object_backup_enabled: true, object_backup_prefix: "bk/" },
    });
    // The days before: zips already there (written directly: one real run each would only repeat).
    for (let d = 0; d < KEEP_DAILY; d++) {
      await env.FILES.put(`bk/${new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10)}.zip`, "old");
    }
    for (let d = KEEP_DAILY; d < KEEP_DAILY + 2; d++) {
      await dailyBackup(env, fixedClock(new Date(Date.UTC(2026, 0, 1 + d, 3, 30)).toISOString()));
    }
    const keys = (await env.FILES.list({ prefix: "bk/" })).objects.map((o) => o.key);
    expect(keys).toHaveLength(KEEP_DAILY);
    expect(keys[0]).toBe("bk/2026-01-03.zip");
    expect(keys.at(-1)).toBe("bk/2026-02-01.zip");
    const obj = await env.FILES.get("bk/2026-02-01.zip");
    const files = unzipSync(new Uint8Array(await obj!.arrayBuffer()));
    const txs = JSON.parse(new TextDecoder().decode(files["transactions.json"]!));
    expect(txs[0]).toMatchObject({ DateFileName: "2025.12.31_10.00_a.eml", Amount: 12 });
    expect(await runCron("30 3 * * *", env, fixedClock("2026-02-05T03:30:00Z"))).toContain("backup.daily");
  }, 60_000);

  it("a zip past one part (a 9 MB receipt) streams into a multipart upload and holds the file intact", async () => {
    await call("/api/v1/config", {
      method: "PUT",
      body: { object_backup_enabled: true, object_backup_prefix: "big/" },
    });
    const photo = new Uint8Array(9 * 1024 * 1024);
    crypto.getRandomValues(photo.subarray(0, 65536));
    for (let i = 65536; i < photo.length; i += 65536) photo.copyWithin(i, 0, 65536);
    photo.set([0xff, 0xd8, 0xff, 0xe0, 0, 2]);
    const fd = new FormData();
    fd.append("file", new File([photo], "big.jpg", { type: "image/jpeg" }));
    const up = await call("/api/v1/attachments", { method: "POST", rawBody: fd });
    expect(up.status, up.text).toBe(200);
    const key = await dailyBackup(env, fixedClock("2026-03-01T03:30:00Z"));
    const obj = await env.FILES.get(key!);
    expect(obj!.size).toBeGreaterThan(9 * 1024 * 1024);
    const files = unzipSync(new Uint8Array(await obj!.arrayBuffer()));
    expect(files[`files/attachments/${up.body.id}`]).toEqual(photo);
  }, 120_000);
});

describe("daily backup in bounded steps (issue 36)", () => {
  it("a journal past one step's budget: the cron run writes the first step, queued steps the rest, into one zip", async () => {
    await call("/api/v1/config", {
      method: "PUT",
      body: { object_backup_enabled: true, object_backup_prefix: "steps/" },
    });
    await env.DB.prepare(
      `WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < 1200)
       INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, Amount, Category)
       SELECT 'me@x', '2025.06.01_00.00_' || n || '.eml', 'd' || n, n, 'x' FROM i`,
    ).run();
    const sent: QueueMessage[] = [];
    const jobs = { send: async (m: QueueMessage) => void sent.push(m) } as unknown as Queue<unknown>;
    const small = { ...STEP, rows: 500 };
    const clock = fixedClock("2026-04-01T03:30:00Z");
    const key = await dailyBackup({ ...env, JOBS: jobs }, clock, small);
    expect(key).toBe("steps/2026-04-01.zip");
    expect(await env.FILES.head(key!)).toBeNull();
    const phases: unknown[] = [];
    while (sent.length) {
      phases.push((await zipBuildStatus(env, clock, "backup-daily"))?.progress.rows_done);
      await runBuildStep({ ...env, JOBS: jobs }, sent.shift()!, clock, small);
    }
    // 1,200+ rows at 500 a step: three steps or more, rows done rising each time.
    expect(phases.length).toBeGreaterThanOrEqual(2);
    expect(phases).toEqual([...phases].sort((a, b) => Number(a) - Number(b)));
    const job = await zipBuildStatus(env, clock, "backup-daily");
    expect(job).toMatchObject({ status: "done", result: { key } });
    const files = unzipSync(new Uint8Array(await (await env.FILES.get(key!))!.arrayBuffer()));
    const txs = JSON.parse(new TextDecoder().decode(files["transactions.json"]!));
    expect(txs.filter((t: { TransactionHash: string }) => t.TransactionHash.startsWith("d"))).toHaveLength(
      1200,
    );
    await env.DB.prepare("DELETE FROM transactions WHERE TransactionHash LIKE 'd%'").run();
  });
});
