// Issue 27: real alert emails of banks in other countries (test/fixtures/alerts/peers, kept from
// other projects' tests with their licences) reach Needs review instead of being ignored; what the
// relevance check does let go is listed with its reason, and "this was a bank alert" moves it.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1, tally } from "../../bench/lib/d1-count";
import type { Env } from "../../src/env";
import { resetAlertTables, upload } from "../fixtures/alerts/helpers";
import { call } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";

const E = env as unknown as Env;
const files = import.meta.glob("../fixtures/alerts/peers/**/*.eml", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** Emails of the corpus that carry no transaction (their README says why). */
const NOT_TRANSACTIONS = [
  "mx-banorte/debit-card-blocked-email.eml",
  "jp-japannetbank/transferDeposited-1.eml",
];
/** Real alerts the check without a model lets go (one alert word): the ignored list takes them on. */
const LET_GO = ["in-kotak/kotak811-1.eml", "in-kotak/kotak811-2.eml"];
const name = (path: string) => path.replace("../fixtures/alerts/peers/", "");
const alerts = Object.keys(files)
  .filter((p) => !NOT_TRANSACTIONS.includes(name(p)) && !LET_GO.includes(name(p)))
  .sort();

// Generic words only: nothing here names a bank of the corpus.
const newsletter = [
  "From: Weekly Reads <news@letters.example>",
  "To: owner@journal.example",
  "Subject: This week's picks",
  "Date: Tue, 3 Nov 2026 08:00:00 +0000",
  "Message-ID: <news-1@letters.example>",
  "Content-Type: text/plain; charset=utf-8",
  "",
  "Five essays we loved this week, and a recipe for autumn soup.",
  "",
].join("\r\n");

beforeEach(resetAlertTables);

describe("real alerts of other countries' banks", () => {
  it("the corpus spans at least 8 banks in 4 countries", () => {
    const banks = new Set(alerts.map((p) => name(p).split("/")[0]));
    const countries = new Set([...banks].map((b) => b!.split("-")[0]));
    expect(banks.size).toBeGreaterThanOrEqual(8);
    expect(countries.size).toBeGreaterThanOrEqual(4);
  });

  it("every one reaches Needs review (quarantined), none is ignored", async () => {
    const outcomes: Record<string, string> = {};
    for (const path of alerts) {
      const res = await upload(files[path]!);
      expect(res.status, res.text).toBe(200);
      outcomes[name(path)] = res.body.status;
    }
    const lost = Object.entries(outcomes).filter(([, s]) => s === "ignored");
    expect(lost).toEqual([]);
    const review = await call("/api/v1/parse-failures");
    expect(review.body.count).toBe(Object.values(outcomes).filter((s) => s === "quarantined").length);
    expect(review.body.count).toBeGreaterThanOrEqual(alerts.length - 2);
    expect((await call("/api/v1/ignored-emails")).body.count).toBe(0);
    // Forty-odd uploads one after another: more than the default 20 s on a loaded machine.
  }, 60_000);
});

describe("the ignored-email list", () => {
  it("shows a truly irrelevant email with its reason in words, and nothing of it is lost", async () => {
    const res = await upload(newsletter);
    expect(res.body.status).toBe("ignored");
    const list = await call("/api/v1/ignored-emails", { now: "2026-11-04T00:00:00Z" });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, retention_days: 90 });
    expect(list.body.emails[0]).toMatchObject({
      from_email: "news@letters.example",
      subject: "This week's picks",
      status: "ignored",
      reason: "not_a_transaction_alert",
      reason_text: "No amount of money found in it.",
    });
  });

  it("is kept 90 days: the list stops showing it and the daily retention removes it", async () => {
    await upload(newsletter, "2026-08-01T12:00:00Z");
    expect((await call("/api/v1/ignored-emails", { now: "2026-10-29T00:00:00Z" })).body.count).toBe(1);
    expect((await call("/api/v1/ignored-emails", { now: "2026-10-31T00:00:00Z" })).body.count).toBe(0);
    const { pruneIgnored } = await import("../../src/ingest/ignored");
    expect(await pruneIgnored(E.DB, new Date("2026-10-31T00:00:00Z"))).toBe(1);
  });

  it("'this was a bank alert' sends it to Needs review; its sender then always passes", async () => {
    // A bank that prints only a bare number and one alert word: the check lets it go.
    const quiet = (n: number, amount: string) =>
      [
        "From: Coop Bank <notices@coop-bank.example>",
        "To: owner@journal.example",
        `Subject: Notice ${n}`,
        `Date: Tue, ${n} Nov 2026 08:00:00 +0000`,
        `Message-ID: <coop-${n}@coop-bank.example>`,
        "Content-Type: text/plain; charset=utf-8",
        "",
        `Your card was used: ${amount} at CORNER SHOP.`,
        "",
      ].join("\r\n");
    expect((await upload(quiet(3, "12.40"))).body.status).toBe("ignored");
    const list = await call("/api/v1/ignored-emails");
    const item = list.body.emails[0];
    expect(item.reason_text).toMatch(/amount/i);

    const counter = countingD1(env.DB);
    const moved = await call(`/api/v1/ignored-emails/${item.id}/bank-alert`, {
      method: "POST",
      env: { DB: counter.db },
    });
    expect(moved.status, moved.text).toBe(200);
    expectEntryInBatch(counter, "ignored_emails");
    // The sender's trust rides in the status write's batch (the re-run took it as trusted unread);
    // auth, the row, the settings (recipient, sender's templates, the unread email's reads: the
    // older id, the drift state), the quarantine's writes, the status.
    expect(counter.trips.at(-1)!.sql.some((q) => q.startsWith('insert into "sender_trust"'))).toBe(true);
    expect(tally(counter.trips).trips).toBe(5);
    expect(moved.body).toMatchObject({
      status: "sent_to_review",
      outcome: "quarantined",
      alert_sender: "notices@coop-bank.example",
    });
    const review = await call(`/api/v1/parse-failures/${moved.body.failure_id}`);
    expect(review.status).toBe(200);
    expect(review.body.subject).toBe("Notice 3");
    const after = await call("/api/v1/ignored-emails");
    expect(after.body.emails[0]).toMatchObject({
      status: "sent_to_review",
      failure_id: moved.body.failure_id,
    });

    // The ledger has the action.
    const ledger = await call("/api/v1/activity");
    expect(JSON.stringify(ledger.body)).toContain("bank alert");

    // The next email of that sender goes straight to Needs review.
    expect((await upload(quiet(4, "7.10"))).body.status).toBe("quarantined");
    expect((await call("/api/v1/ignored-emails")).body.count).toBe(1);
  });

  it("answers 404 for an unknown id", async () => {
    const res = await call("/api/v1/ignored-emails/ign_nope/bank-alert", { method: "POST" });
    expect(res.status).toBe(404);
    expect(res.body.code).toBeTruthy();
  });
});
