// Issue 18: learn an unknown bank's alert from one hand-resolved email, then read the next ones.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { ingestEmail } from "../../src/ingest";
import { call } from "../helpers/http";
import { quarantined, resolve } from "../helpers/learn";
import { allTransactions, resetIngestTables, testDeps } from "../fixtures/emails/deps";
import { harbour, laurier, maple, prairie } from "../fixtures/emails/unknown-banks/banks";
import { buildMime } from "../fixtures/emails/builders";

const E = env as unknown as Env;

beforeEach(async () => {
  await resetIngestTables();
  await E.DB.prepare("DELETE FROM alert_templates").run();
});

describe("learning a bank's alert from one resolved email", () => {
  it("plain text: learns, reads the next alerts exactly with their time, queues the first three", async () => {
    const id = await quarantined(
      maple({ id: "m1", amount: "1,234.56", merchant: "TIM HORTONS #42", printed: "Oct 12, 2026" }),
    );
    const answer = await resolve(id, {
      date: "2026-10-12",
      amount: 1234.56,
      company: "TIM HORTONS #42",
      institution: "Maple CU",
    });
    expect(answer).toMatchObject({
      status: "resolved",
      template_name: "Maple CU purchase",
      template_reason: null,
    });
    expect(answer.template_id).toMatch(/^tpl_[0-9a-f]{16}$/);

    for (const [i, a] of [
      { amount: "7.05", merchant: "BLUE BOTTLE", printed: "Oct 13, 2026", time: "9:02 AM" },
      { amount: "88.10", merchant: "SHOPPERS DRUG MART", printed: "Oct 14, 2026", time: "11:59 PM" },
      { amount: "3.00", merchant: "PARKING", printed: "Oct 15, 2026" },
      { amount: "15.25", merchant: "CINEPLEX", printed: "Oct 16, 2026" },
    ].entries()) {
      const out = await ingestEmail(maple({ id: `m${i + 2}`, ...a }), testDeps());
      expect(out.status).toBe("created");
    }
    const rows = (await allTransactions()).filter((r) => r.ExtractionAudit?.method === "learned_template");
    expect(
      rows.map((r) => [r.Institution, r.Amount, r.Company, r.TransactionType, r.DateFileName.slice(0, 16)]),
    ).toEqual([
      ["Maple CU", 7.05, "BLUE BOTTLE", "purchase", "2026.10.13_09.02"],
      ["Maple CU", 88.1, "SHOPPERS DRUG MART", "purchase", "2026.10.14_23.59"],
      ["Maple CU", 3, "PARKING", "purchase", "2026.10.15_15.45"],
      ["Maple CU", 15.25, "CINEPLEX", "purchase", "2026.10.16_15.45"],
    ]);
    expect(rows[0]!.ExtractionAudit).toMatchObject({
      method: "learned_template",
      model: answer.template_id,
      validated: true,
    });
    const queued = await E.DB.prepare(
      "SELECT DateFileName, reason FROM attention_queue ORDER BY DateFileName",
    ).all<any>();
    expect(queued.results.map((r) => [r.DateFileName.slice(0, 10), r.reason])).toEqual([
      ["2026.10.13", "learned_template"],
      ["2026.10.14", "learned_template"],
      ["2026.10.15", "learned_template"],
    ]);
  });

  it("a reworded sentence is read by its labels exactly (issue 37), never guessed", async () => {
    const id = await quarantined(
      maple({ id: "w1", amount: "20.00", merchant: "KIOSK", printed: "Oct 12, 2026" }),
    );
    await resolve(id, { date: "2026-10-12", amount: 20, company: "KIOSK", institution: "Maple CU" });
    const out = await ingestEmail(
      maple({ id: "w2", amount: "21.00", merchant: "KIOSK", printed: "Oct 13, 2026" }, "You have spent"),
      testDeps(),
    );
    expect(out).toMatchObject({
      status: "created",
      tx: { Institution: "Maple CU", Amount: 2100, Company: "KIOSK" },
    });
    expect((out as { tx: { DateFileName: string } }).tx.DateFileName).toMatch(/^2026\.10\.13_15\.45/);
  });

  it("two readings that disagree, or none, send the alert to Needs review with the reason (issue 37)", async () => {
    const id = await quarantined(
      maple({ id: "d1", amount: "20.00", merchant: "KIOSK", printed: "Oct 12, 2026" }),
    );
    await resolve(id, { date: "2026-10-12", amount: 20, company: "KIOSK", institution: "Maple CU" });
    const twice = buildMime({
      from: "Maple Credit Union <alerts@notify.maplecu.example>",
      to: "sam@example.com",
      subject: "Card purchase alert: $5.00",
      date: "Tue, 13 Oct 2026 16:00:00 -0700",
      messageId: "<d2@maplecu.example>",
      body: [
        "Your Maple Visa ending 4821 was used.",
        "You spent $5.00 at KIOSK on Oct 13, 2026 at 3:45 PM.",
        "You spent $50.00 at KIOSK on Oct 13, 2026 at 3:45 PM.",
      ].join("\n"),
    });
    const reworded = buildMime({
      from: "Maple Credit Union <alerts@notify.maplecu.example>",
      to: "sam@example.com",
      subject: "Card purchase alert: $9.00",
      date: "Tue, 13 Oct 2026 17:00:00 -0700",
      messageId: "<d3@maplecu.example>",
      body: "Hello Sam,\nA payment of $9.00 was approved. Thank you.",
    });
    const errors: string[] = [];
    for (const raw of [twice, reworded]) {
      const out = await ingestEmail(raw, testDeps());
      expect(out.status).toBe("quarantined");
      const listed = (await call("/api/v1/parse-failures")).body.failures as any[];
      errors.push(listed.find((f) => f.id === (out as { id: string }).id)?.error);
    }
    expect(errors[0]).toMatch(/^the learned template "Maple CU purchase" did not read it: .*disagree/);
    expect(errors[1]).toMatch(/^the learned template "Maple CU purchase" did not read it: /);
    expect((await allTransactions()).filter((r) => r.Company === "KIOSK")).toHaveLength(1);
  });

  it("HTML-only table cells, DD/MM/YYYY dates", async () => {
    const id = await quarantined(
      prairie({ id: "p1", amount: "23.75", merchant: "CORNER BAKERY", printed: "12/10/2026" }),
    );
    const answer = await resolve(id, {
      date: "2026-10-12",
      amount: 23.75,
      company: "Corner Bakery",
      institution: "Prairie",
    });
    expect(answer.template_reason).toBeNull();
    const out = await ingestEmail(
      prairie({ id: "p2", amount: "1,023.00", merchant: "BIG BOX", printed: "03/11/2026" }),
      testDeps(),
    );
    expect(out).toMatchObject({
      status: "created",
      tx: { Institution: "Prairie", Amount: 102300, Company: "BIG BOX" },
    });
    expect(out.status === "created" && out.tx.DateFileName.slice(0, 10)).toBe("2026.11.03");
  });

  it("French wording with comma decimals, and a foreign charge with its CAD amount", async () => {
    const l = await quarantined(
      laurier({ id: "l1", amount: "1 234,56", merchant: "EPICERIE DU COIN", printed: "2026-10-12" }),
    );
    await resolve(l, {
      date: "2026-10-12",
      amount: 1234.56,
      company: "Epicerie du Coin",
      institution: "Laurier",
    });
    const l2 = await ingestEmail(
      laurier({ id: "l2", amount: "8,10", merchant: "BOULANGERIE", printed: "2026-10-13" }),
      testDeps(),
    );
    expect(l2).toMatchObject({
      status: "created",
      tx: { Institution: "Laurier", Amount: 810, Company: "BOULANGERIE" },
    });

    const h = await quarantined(
      harbour({
        id: "h1",
        amount: "17.02",
        foreign: "12.40",
        merchant: "BLUE BOTTLE",
        printed: "12 Oct 2026",
      }),
    );
    await resolve(h, {
      date: "2026-10-12",
      amount: 17.02,
      company: "BLUE BOTTLE",
      institution: "Harbour",
      transaction_type: "purchase",
    });
    const h2 = await ingestEmail(
      harbour({
        id: "h2",
        amount: "1,402.99",
        foreign: "1,020.00",
        merchant: "APPLE STORE",
        printed: "2 Nov 2026",
      }),
      testDeps(),
    );
    expect(h2).toMatchObject({
      status: "created",
      tx: { Institution: "Harbour", Amount: 140299, Company: "APPLE STORE" },
    });
  });

  it("a template whose typed values are not in the email is refused in words; the transaction stands", async () => {
    const id = await quarantined(
      maple({ id: "r1", amount: "9.99", merchant: "NETFLIX", printed: "Oct 12, 2026" }),
    );
    const answer = await resolve(id, { date: "2026-10-12", amount: 9.99, company: "Spotify" });
    expect(answer).toMatchObject({
      status: "resolved",
      template_id: null,
      template_reason: "the merchant you typed does not appear in the email",
    });
    expect((await allTransactions()).map((r) => r.Company)).toEqual(["Spotify"]);
    const none = await E.DB.prepare("SELECT COUNT(*) AS n FROM alert_templates").first<{ n: number }>();
    expect(none!.n).toBe(0);
  });

  it("learning is off by default for a known bank's domain, and off when unticked", async () => {
    const id = await quarantined(
      maple({ id: "o1", amount: "5.00", merchant: "KIOSK", printed: "Oct 12, 2026" }),
    );
    const answer = await resolve(id, {
      date: "2026-10-12",
      amount: 5,
      company: "KIOSK",
      learn_template: false,
    });
    expect(answer).toMatchObject({ template_id: null, template_reason: null });
  });

  it("retry-all recovers the backlog of the same shape", async () => {
    const ids = [];
    for (const [i, m] of ["A MART", "B MART", "C MART"].entries()) {
      ids.push(
        await quarantined(
          maple({ id: `b${i}`, amount: `${i + 1}0.00`, merchant: m, printed: `Oct ${10 + i}, 2026` }),
        ),
      );
    }
    await quarantined(prairie({ id: "bx", amount: "1.00", merchant: "OTHER", printed: "01/10/2026" }));
    await resolve(ids[0]!, { date: "2026-10-10", amount: 10, company: "A MART", institution: "Maple CU" });
    const res = await call("/api/v1/parse-failures/retry-all", { method: "POST", body: {} });
    expect(res.body).toEqual({
      retried: 3,
      created: 2,
      duplicates: 0,
      still_failing: 1,
      status: "done",
      task_id: null,
    });
    const companies = (await allTransactions()).map((r) => r.Company).sort();
    expect(companies).toEqual(["A MART", "B MART", "C MART"]);
  });
});
