// Issue 18: wording drift for every bank. A domain that used to parse and now quarantines several
// emails in a row degrades health with the reason in words, notifies once, and clears on a parse.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { ingestEmail } from "../../src/ingest";
import { call } from "../helpers/http";
import { buildMime } from "../fixtures/emails/builders";
import { recordingNotifier, resetIngestTables, testDeps } from "../fixtures/emails/deps";
import { maple } from "../fixtures/emails/unknown-banks/banks";

const E = env as unknown as Env;
const cibc = (id: string, body: string) =>
  buildMime({
    from: "CIBC <mailbox.noreply@cibc.com>",
    subject: "CIBC alert",
    messageId: `<${id}@cibc.com>`,
    body,
  });
const CIBC_OK = (n: number) =>
  `Dear Carlos,\nYou've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $${n}.19 at SAVE-ON-FOODS #2281.\nCIBC`;
const CIBC_NEW = (n: number) =>
  `Dear Carlos,\nCIBC card 2210: a payment of $${n}.19 was charged at SAVE-ON-FOODS.\nCIBC`;

const driftReasons = async () =>
  ((await call("/api/v1/health")).body.reasons as string[]).filter((r) =>
    r.includes("wording may have changed"),
  );

beforeEach(async () => {
  await resetIngestTables();
  await E.DB.prepare("DELETE FROM alert_templates").run();
});

describe("wording drift", () => {
  it("a built-in bank: three quarantines in a row after a parse raise it once; a parse clears it", async () => {
    const notify = recordingNotifier();
    const deps = () => testDeps({ notify });
    expect((await ingestEmail(cibc("ok1", CIBC_OK(10)), deps())).status).toBe("created");
    for (const n of [1, 2])
      expect((await ingestEmail(cibc(`new${n}`, CIBC_NEW(n)), deps())).status).toBe("quarantined");
    expect(await driftReasons()).toEqual([]);
    await ingestEmail(cibc("new3", CIBC_NEW(3)), deps());
    await ingestEmail(cibc("new4", CIBC_NEW(4)), deps());
    const health = await call("/api/v1/health");
    expect(health.body.status).not.toBe("ok");
    expect(await driftReasons()).toEqual([
      "CIBC alerts have not parsed since 20 Oct: their wording may have changed",
    ]);
    expect(notify.sent.filter((m) => m.title === "CIBC alerts stopped parsing")).toHaveLength(1);
    expect((await ingestEmail(cibc("ok2", CIBC_OK(11)), deps())).status).toBe("created");
    expect(await driftReasons()).toEqual([]);
  });

  it("a learned bank drifts too; a sender that never parsed never does", async () => {
    const first = await ingestEmail(
      maple({ id: "d1", amount: "4.00", merchant: "KIOSK", printed: "Oct 12, 2026" }),
      testDeps(),
    );
    expect(first.status).toBe("quarantined");
    for (const i of [2, 3, 4]) {
      await ingestEmail(
        maple({ id: `d${i}`, amount: `${i}.00`, merchant: "KIOSK", printed: "Oct 12, 2026" }),
        testDeps(),
      );
    }
    expect(await driftReasons()).toEqual([]);
    if (first.status !== "quarantined") return;
    await call(`/api/v1/parse-failures/${first.id}/resolve`, {
      method: "POST",
      body: { date: "2026-10-12", amount: 4, company: "KIOSK", institution: "Maple CU" },
    });
    expect(
      (
        await ingestEmail(
          maple({ id: "d5", amount: "5.00", merchant: "SHOP", printed: "Oct 13, 2026" }),
          testDeps(),
        )
      ).status,
    ).toBe("created");
    for (const i of [6, 7, 8]) {
      const out = await ingestEmail(
        maple({ id: `d${i}`, amount: `${i}.00`, merchant: "SHOP", printed: "Oct 14, 2026" }, "You paid"),
        testDeps(),
      );
      expect(out.status).toBe("quarantined");
    }
    expect(await driftReasons()).toEqual([
      "Maple CU alerts have not parsed since 20 Oct: their wording may have changed",
    ]);
  });
});
