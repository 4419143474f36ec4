import { env } from "cloudflare:test";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { dailyBackup, KEEP_DAILY } from "../../src/domains/data/daily";
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
    for (let d = 0; d < KEEP_DAILY + 2; d++) {
      await dailyBackup(env, fixedClock(new Date(Date.UTC(2026, 0, 1 + d, 3, 30)).toISOString()));
    }
    const keys = (await env.FILES.list({ prefix: "bk/" })).objects.map((o) => o.key);
    expect(keys).toHaveLength(KEEP_DAILY);
    expect(keys[0]).toBe("bk/2026-01-03.zip");
    expect(keys.at(-1)).toBe("bk/2026-02-01.zip");
    const obj = await env.FILES.get("bk/2026-01-03.zip");
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
