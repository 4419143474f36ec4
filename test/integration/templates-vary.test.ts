// Issues 23, 26 and 27 on learned templates, through the HTTP API as the dashboard uses it:
// a tidied merchant name anchors on the text around the email's own merchant span; a second
// wording of a bank merges into its template (card names, digits, line breaks vary); a span the
// person marks as changing is skipped; a hostile email from a learned sender cannot hang ingest.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import type { Env } from "../../src/env";
import { ingestEmail } from "../../src/ingest";
import { allTransactions, resetIngestTables, testDeps } from "../fixtures/emails/deps";
import { buildMime } from "../fixtures/emails/builders";
import { lion, sapphire, venture, westcoast } from "../fixtures/emails/unknown-banks/varying";
import { call } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { quarantined, resolve } from "../helpers/learn";

const E = env as unknown as Env;

async function read(raw: Uint8Array) {
  const out = await ingestEmail(raw, testDeps());
  expect(out.status).toBe("created");
  if (out.status !== "created") throw new Error(out.status);
  return { amount: out.tx.Amount, company: out.tx.Company, day: out.tx.DateFileName.slice(0, 10) };
}

const templates = async () =>
  (await E.DB.prepare("SELECT id, name, example FROM alert_templates ORDER BY created_at").all<any>())
    .results;

beforeEach(async () => {
  await resetIngestTables();
  await E.DB.prepare("DELETE FROM alert_templates").run();
});

describe("a tidied merchant name (issue 23)", () => {
  it("anchors around the email's own merchant span: the next alert from Burnaby is read", async () => {
    const id = await quarantined(
      westcoast({ id: "w1", amount: "412.30", merchant: "BEST BUY #905 VANCOUVER BC" }),
    );
    const answer = await resolve(id, {
      date: "2026-10-12",
      amount: 412.3,
      company: "Best Buy #905",
      institution: "Westcoast",
    });
    expect(answer.template_reason).toBeNull();
    const [t] = await templates();
    expect(t.example).toContain("Merchant: [merchant]");
    expect(t.example).not.toMatch(/VANCOUVER|BEST|BUY/);
    expect(
      await read(
        westcoast({
          id: "w2",
          amount: "19.99",
          merchant: "BEST BUY #411 BURNABY BC",
          printed: "Oct 14, 2026",
        }),
      ),
    ).toEqual({
      amount: 1999,
      company: "BEST BUY #411 BURNABY BC",
      day: "2026.10.14",
    });
  });

  it("a learned template whose retry still fails says which anchor did not match", async () => {
    const id = await quarantined(westcoast({ id: "w3", amount: "5.00", merchant: "KIOSK" }));
    await resolve(id, { date: "2026-10-12", amount: 5, company: "Kiosk", institution: "Westcoast" });
    const reworded = buildMime({
      from: "Westcoast Bank <alerts@westcoastbank.example>",
      to: "sam@example.com",
      subject: "Purchase alert",
      date: "Mon, 12 Oct 2026 16:00:00 -0700",
      messageId: "<w4@westcoastbank.example>",
      body: "A purchase was made on your credit card.\nAmount: $6.00\nStore: CAFE\nDate: Oct 12, 2026",
    });
    const failed = await quarantined(reworded);
    const retry = await call(`/api/v1/parse-failures/${failed}/retry`, { method: "POST" });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ status: "still_failing" });
    expect(retry.body.reason).toBe(
      'the learned template "Westcoast purchase" did not read it: the anchor "Merchant:" before the merchant was not found',
    );
  });
});

describe("a template learns what varies (issue 27)", () => {
  it("a template is saved in one round trip; a merge whose update writes nothing offers no Undo", async () => {
    const first = await quarantined(venture({ id: "g1", amount: "12.47", merchant: "TIM HORTONS" }));
    const again = await quarantined(venture({ id: "g1c", amount: "3.10", merchant: "TIM HORTONS" }));
    // The second wording reaches review before any template exists (a taught template reads it
    // by its anchors since issue 37).
    const second = await quarantined(
      venture({
        id: "g2",
        amount: "40.00",
        merchant: "SHELL OIL 5744",
        printed: "October 13, 2026",
        card: "Savor",
        digits: "9876",
        breakBefore: true,
      }),
    );
    const counter = countingD1(E.DB);
    const learned = await call(`/api/v1/parse-failures/${first}/resolve`, {
      method: "POST",
      body: { date: "2026-10-12", amount: 12.47, company: "Tim Hortons", institution: "Capital Two" },
      env: { DB: counter.db },
    });
    expect(learned.body.template_id).toMatch(/^tpl_/);
    // The learned template is saved in the batch that inserts the row and marks the failure
    // resolved (guarded like that status write), with the resolve's entry.
    const saves = counter.trips.filter((t) => t.sql.some((q) => /^insert into "alert_templates"/i.test(q)));
    expect(saves).toHaveLength(1);
    expect(saves[0]!.sql.some((q) => /^insert into "transactions"/i.test(q))).toBe(true);
    expectEntryInBatch(counter, "alert_templates");
    expect(counter.trips.filter((t) => !t.background).length).toBeLessThanOrEqual(4);
    expect(await templates()).toEqual([
      expect.objectContaining({ id: learned.body.template_id, name: learned.body.template_name }),
    ]);
    // The sender's templates were read once before it, with the settings.
    const [reads, ...more] = counter.trips.filter(
      (t) => t !== saves[0] && t.sql.some((q) => /^select .* from "alert_templates"/i.test(q)),
    );
    expect(more).toEqual([]);
    expect(reads!.sql.some((q) => /from "blocked_companies"/i.test(q))).toBe(true);
    // Another failure of the sender: the example merged into the one template.
    const slow = await call(`/api/v1/parse-failures/${again}/resolve`, {
      method: "POST",
      body: { date: "2026-10-12", amount: 3.1, company: "Tim Hortons", institution: "Capital Two" },
    });
    expect(slow.status, slow.text).toBe(200);
    expect(slow.body.template_id).toBe(learned.body.template_id);
    expect(await templates()).toHaveLength(1);
    await E.DB.prepare("DELETE FROM activity_log").run();
    // The template is planned for the merge, then its update changes nothing (as if it went away).
    await E.DB.prepare(
      "CREATE TRIGGER t_vanish BEFORE UPDATE ON alert_templates BEGIN SELECT RAISE(IGNORE); END",
    ).run();
    let res: Awaited<ReturnType<typeof call<any>>>;
    try {
      res = await call<any>(`/api/v1/parse-failures/${second}/resolve`, {
        method: "POST",
        body: { date: "2026-10-13", amount: 40, company: "Shell", institution: "Capital Two" },
      });
    } finally {
      await E.DB.prepare("DROP TRIGGER t_vanish").run();
    }
    expect(res.status, res.text).toBe(200);
    expect(res.body.template_note ?? "").not.toMatch(/^merged into/);
    expect(await templates()).toHaveLength(2);
    // Only the resolve's own entry exists: the resolve is undoable (issue 34), the merge is not in it.
    const rows = await E.DB.prepare("SELECT id, resource_id, reversible FROM activity_log").all<any>();
    expect(rows.results).toEqual([expect.objectContaining({ resource_id: second, reversible: 1 })]);
    expect(res.headers.get("X-Activity-Id")).toBe(rows.results[0].id);
    // The same email again as another failure: the transaction is a duplicate (409) and the
    // template it would learn is not saved (its insert is guarded like the failure's status).
    await E.DB.prepare("DELETE FROM alert_templates").run();
    const twin = await quarantined(venture({ id: "g1b", amount: "12.47", merchant: "TIM HORTONS" }));
    const dup = await call(`/api/v1/parse-failures/${twin}/resolve`, {
      method: "POST",
      body: { date: "2026-10-12", amount: 12.47, company: "Tim Hortons", institution: "Capital Two" },
    });
    expect(dup.status, dup.text).toBe(409);
    expect(await templates()).toEqual([]);
  });

  it("a second wording of the same bank merges into its template; both read exactly after", async () => {
    const first = await quarantined(venture({ id: "v1", amount: "12.47", merchant: "TIM HORTONS" }));
    // Another card, other digits, the line broken before "at"; in review before any template exists
    // (once taught, the first template reads it by its anchors, issue 37).
    const savor = { card: "Savor", digits: "9876", breakBefore: true };
    const second = await quarantined(
      venture({
        id: "v2",
        amount: "40.00",
        merchant: "SHELL OIL 5744",
        printed: "October 13, 2026",
        ...savor,
      }),
    );
    const a = await resolve(first, {
      date: "2026-10-12",
      amount: 12.47,
      company: "Tim Hortons",
      institution: "Capital Two",
    });
    expect(a.template_reason).toBeNull();
    const counter = countingD1(E.DB);
    const merged = await call(`/api/v1/parse-failures/${second}/resolve`, {
      method: "POST",
      body: { date: "2026-10-13", amount: 40, company: "Shell", institution: "Capital Two" },
      env: { DB: counter.db },
    });
    const b = merged.body;
    expect(b).toMatchObject({ template_id: a.template_id, template_reason: null });
    // The merge's entry (the request's one) rides in the template update's batch, which is the
    // row's insert batch.
    expectEntryInBatch(counter, "alert_templates");
    expectEntryInBatch(counter, "transactions");
    expect(counter.trips.filter((t) => !t.background).length).toBeLessThanOrEqual(5);
    // D1 reads of quarantined emails: this one, then the one the template learned from (the
    // re-learning as paragraphs and the check share that read).
    const failureReads = counter.trips.filter((t) =>
      t.sql.some((q) => /^select .* from "parse_failures"/i.test(q)),
    );
    expect(failureReads.length).toBeLessThanOrEqual(2);
    expect(b.template_note).toMatch(/^merged into "Capital Two purchase"/);
    expect(await templates()).toHaveLength(1);
    const [t] = await templates();
    expect(t.example).toContain("[varies]");
    expect(t.example).not.toMatch(/VentureOne|Savor|TIM|SHELL/);
    // Every later email of either wording is read exactly.
    expect(
      await read(
        venture({ id: "v3", amount: "1,204.99", merchant: "DELTA AIR LINES", printed: "October 14, 2026" }),
      ),
    ).toEqual({
      amount: 120499,
      company: "DELTA AIR LINES",
      day: "2026.10.14",
    });
    expect(
      await read(
        venture({
          id: "v4",
          amount: "3.10",
          merchant: "MTA*NYCT PAYGO",
          printed: "October 15, 2026",
          ...savor,
          digits: "1111",
        }),
      ),
    ).toEqual({
      amount: 310,
      company: "MTA*NYCT PAYGO",
      day: "2026.10.15",
    });
    // The merge is journaled and can be undone: the template reads as before.
    const log = await call("/api/v1/activity?limit=5");
    const entry = log.body.entries?.find((e: any) => /second wording/.test(e.summary ?? ""));
    expect(entry, JSON.stringify(log.body).slice(0, 400)).toBeTruthy();
    expect(entry.id).toBe(merged.headers.get("x-activity-id"));
    const before = (await templates())[0];
    const undo = await call(`/api/v1/activity/${entry.id}/revert`, { method: "POST" });
    expect(undo.status, undo.text).toBe(200);
    expect((await templates())[0].example).not.toBe(before.example);
    expect((await templates())[0].example).not.toContain("[varies]");
  });

  it("a merge that would widen the anchor beside a value is refused in words; both stay", async () => {
    const first = await quarantined(lion({ id: "l1", amount: "12.34", merchant: "GRAB*FOOD" }));
    const a = await resolve(first, {
      date: "2026-10-12",
      amount: 12.34,
      company: "Grab Food",
      institution: "Lion",
    });
    expect(a.template_reason).toBeNull();
    const other = buildMime({
      from: "Lion Bank <unialerts@lionbank.example>",
      to: "sam@example.com",
      subject: "Lion Bank - Transaction Alert",
      date: "Mon, 12 Oct 2026 18:00:00 -0700",
      messageId: "<l2@lionbank.example>",
      body: "A transaction of SGD 8.00 was made with your Lion One Card ending 4321 chez KOPITIAM.\nIf unauthorised, please call our 24/7 Fraud Hotline now.",
    });
    const b = await resolve(await quarantined(other), {
      date: "2026-10-12",
      amount: 8,
      company: "Kopitiam",
      institution: "Lion",
    });
    expect(b.template_reason).toBeNull();
    expect(b.template_note).toBe(
      "kept as a second template of this bank, not merged: the text that varies sits right beside the merchant, with nothing fixed between them",
    );
    expect(await templates()).toHaveLength(2);
  });

  it("a span marked as changing in the resolve form is skipped by the template", async () => {
    const first = await quarantined(
      sapphire({ id: "s1", amount: "12.47", merchant: "STARBUCKS STORE 12345" }),
    );
    const a = await resolve(first, {
      date: "2026-10-12",
      time: "15:45",
      amount: 12.47,
      company: "Starbucks",
      institution: "Chaste",
      varying: ["Sapphire Preferred"],
    });
    expect(a.template_reason).toBeNull();
    const rows = await allTransactions();
    expect(rows[0]!.DateFileName.slice(0, 16)).toBe("2026.10.12_15.45");
    // The card line is not a value line here, so the mark changes nothing it reads; another card reads.
    expect(
      await read(
        sapphire({
          id: "s2",
          amount: "1,004.00",
          merchant: "APPLE.COM/BILL",
          card: "Freedom Unlimited",
          digits: "0001",
          printed: "Oct 13, 2026",
        }),
      ),
    ).toEqual({
      amount: 100400,
      company: "APPLE.COM/BILL",
      day: "2026.10.13",
    });
  });

  it("a mark on a value line becomes a bounded wildcard; a mark over a value is refused in words", async () => {
    const first = await quarantined(
      lion({ id: "l3", amount: "12.34", merchant: "GRAB*FOOD", card: "Visa Signature" }),
    );
    const over = await resolve(first, {
      date: "2026-10-12",
      amount: 12.34,
      company: "GRAB*FOOD",
      varying: ["12.34 was"],
    });
    expect(over.template_reason).toBe('the text you marked as changing ("12.34 was") overlaps the amount');
    const next = await quarantined(
      lion({ id: "l4", amount: "7.00", merchant: "NTUC FAIRPRICE", card: "Visa Signature" }),
    );
    const ok = await resolve(next, {
      date: "2026-10-12",
      amount: 7,
      company: "NTUC FairPrice",
      varying: ["Visa Signature"],
    });
    expect(ok.template_reason).toBeNull();
    const [t] = await templates();
    expect(t.example).toBe(
      "A transaction of SGD [amount] was made with your Lion [varies] Card ending # at [merchant].",
    );
    expect(await read(lion({ id: "l5", amount: "3.20", merchant: "SIMPLYGO", card: "PRVI Miles" }))).toEqual({
      amount: 320,
      company: "SIMPLYGO",
      day: "2026.10.12",
    });
  });
});

describe("a hostile email cannot hang the Worker (issue 26, finding 4)", () => {
  it("a 0.9 KB line repeating the merchant, from a learned sender, is handled in well under a second", async () => {
    const m = "ACME";
    const line = `Purchase at ${m} for $12.34 at ${m} ${m} ${m} ${m} ${m} ${m} on Oct 12, 2026.`;
    const mk = (id: string, body: string) =>
      buildMime({
        from: "Hostile Bank <alerts@hostile.example>",
        to: "sam@example.com",
        subject: "Card alert",
        date: "Mon, 12 Oct 2026 16:00:00 -0700",
        messageId: `<${id}@hostile.example>`,
        body: `Hello,\n${body}\nThank you.`,
      });
    const id = await quarantined(mk("h1", line));
    const learned = await resolve(id, {
      date: "2026-10-12",
      amount: 12.34,
      company: m,
      institution: "Hostile",
    });
    expect(learned.template_reason).toBeNull();
    const hostile = `Purchase at ${"x ".repeat(120)} for $12.34 at ${`${m} `.repeat(120)}`.slice(0, 900);
    const t0 = Date.now();
    const out = await ingestEmail(mk("h2", hostile), testDeps());
    const ms = Date.now() - t0;
    expect(out.status).toBe("quarantined");
    expect(ms).toBeLessThan(1000);
    const health = await call("/api/v1/health");
    expect(health.status).toBe(200);
  }, 20_000);
});
