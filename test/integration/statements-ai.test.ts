// The AI statement reader: only when opted in and no parser found a table; fails closed.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { call, expectEnvelope } from "../helpers/http";
import { type FakeModel, fakeModel, modelServerUrl } from "../helpers/fake-model-client";
import { makePdf } from "../fixtures/statements/make-pdf";
import { riberaStatement } from "../fixtures/statements/unknown-bank";

const NOW = "2025-04-02T12:00:00.000Z";

// A statement without a column header row: no deterministic parser can read it.
const LETTER_STATEMENT = makePdf([
  [
    { x: 72, y: 740, text: "Harbour Savings - monthly account summary for March 2025" },
    { x: 72, y: 700, text: "On 2025-03-04 you paid Coffee Corner 4.50 from this account." },
    { x: 72, y: 684, text: "On 2025-03-09 Acme Payroll sent you 1,250.00 into this account." },
    { x: 72, y: 668, text: "Your balance at the end of the month was 3,300.00." },
  ],
]);

let fm: FakeModel;
const modelEnv = () => ({ MODEL_API_KEY: fm.key, MODEL_BASE_URL: `${modelServerUrl()}/v1` });
const upload = (bytes: Uint8Array) => {
  const fd = new FormData();
  fd.append("file", new File([bytes], "harbour.pdf", { type: "application/pdf" }));
  return call("/api/v1/statements/upload", { method: "POST", rawBody: fd, now: NOW, env: modelEnv() });
};
const optIn = (on: boolean) =>
  call("/api/v1/config", {
    method: "PUT",
    body: { ai_statement_parsing_enabled: on, document_parsing_provider: "hosted" },
    now: NOW,
  });
const row = (date: string, description: string, amount: string, type: string) => ({
  date,
  description,
  amount,
  type,
});
const stored = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM statements").first<{ n: number }>())!.n;

describe("AI statement reader", () => {
  beforeEach(async () => {
    await env.DB.batch(
      ["statements", "statement_rows", "app_config"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
    );
    fm = await fakeModel();
  });

  it("is not asked unless the person opted in", async () => {
    const res = await upload(LETTER_STATEMENT);
    expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(await fm.calls()).toHaveLength(0);
  });

  it("reads the rows when every amount appears in the text; the statement says it was read by AI", async () => {
    expect((await optIn(true)).status).toBe(200);
    await fm.script([
      {
        kind: "tool",
        arguments: {
          institution: "Harbour Savings",
          account_type: "savings",
          period_start: "2025-03-01",
          period_end: "2025-03-31",
          transactions: [
            row("2025-03-04", "Coffee Corner", "4.50", "withdrawal"),
            row("2025-03-09", "Acme Payroll", "1250.00", "deposit"),
          ],
        },
      },
    ]);
    const res = await upload(LETTER_STATEMENT);
    expect(res.status, res.text).toBe(200);
    expect(res.body.metadata).toMatchObject({
      institution: "Harbour Savings",
      parsed_with_ai: true,
      transaction_count: 2,
    });
    expect(res.body.transactions.map((t: any) => [t.date, t.type, t.amount])).toEqual([
      ["2025-03-04", "withdrawal", 4.5],
      ["2025-03-09", "deposit", 1250],
    ]);
    expect(res.body.balance_check.ok).toBe(false);
    const calls = await fm.calls();
    expect(calls).toHaveLength(1);
    expect(JSON.stringify(calls[0]!.body)).toContain("Coffee Corner 4.50");
  });

  it.each([
    [
      "an amount that is not in the text",
      row("2025-03-04", "Coffee Corner", "45.00", "withdrawal"),
      /45\.00 does not appear/,
    ],
    ["an impossible date", row("2025-02-30", "Coffee Corner", "4.50", "withdrawal"), /no valid date/],
    [
      "a type other than withdrawal or deposit",
      row("2025-03-04", "Coffee Corner", "4.50", "transfer"),
      /neither a withdrawal nor a deposit/,
    ],
  ])("refuses %s and stores nothing", async (_name, bad, why) => {
    await optIn(true);
    await fm.script([
      {
        kind: "tool",
        arguments: {
          institution: "Harbour",
          transactions: [row("2025-03-09", "Acme", "1,250.00", "deposit"), bad],
        },
      },
    ]);
    const res = expectEnvelope(await upload(LETTER_STATEMENT), 422, "VALIDATION_ERROR");
    expect(res.error).toMatch(why);
    expect(await stored()).toBe(0);
  });

  it("a provider failure or an empty answer is a clear 422; a scan never reaches the model", async () => {
    await optIn(true);
    // The provider retries once: two failures in a row.
    await fm.script([
      { kind: "status", status: 500 },
      { kind: "status", status: 500 },
    ]);
    expect(expectEnvelope(await upload(LETTER_STATEMENT), 422, "VALIDATION_ERROR").error).toMatch(
      /AI reading failed/,
    );
    await fm.script([{ kind: "tool", arguments: { institution: "x", transactions: [] } }]);
    expect(expectEnvelope(await upload(LETTER_STATEMENT), 422, "VALIDATION_ERROR").error).toMatch(
      /no transactions/,
    );
    const before = (await fm.calls()).length;
    expect(expectEnvelope(await upload(makePdf([[]])), 422, "VALIDATION_ERROR").error).toMatch(/scanned/);
    expect((await fm.calls()).length).toBe(before);
    expect(await stored()).toBe(0);
  });

  it("a table no rule reads whose AI reading fails is kept for marking: no rows found, never a refusal or an empty answer", async () => {
    await optIn(true);
    await fm.script([
      { kind: "status", status: 500 },
      { kind: "status", status: 500 },
    ]);
    const table = riberaStatement(["01/01/2025", "31/01/2025"], 10_000, [
      { date: "03/01/2025", text: "MERCADO CENTRAL", cents: -1_250 },
      { date: "05/01/2025", text: "NOMINA", cents: 50_000 },
    ]);
    const res = await upload(table);
    expect(res.status, res.text).toBe(200);
    expect(res.body.summary.total_parsed).toBe(0);
    const words = res.body.balance_check.warnings.join(" ");
    expect(words).toMatch(/^No rows found: .*Mark its date, description, amount and balance columns/);
    expect(words).toMatch(/AI reading failed/);
    const page = await call(`/api/v1/statements/${res.body.statement_id}/page-text`, { now: NOW });
    expect(page.status).toBe(200);
    expect(page.body.lines.length).toBeGreaterThan(3);
  });
});
