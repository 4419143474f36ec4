// Review: rows that move money between the person's own accounts (or pay a card) are marked as
// transfers with the reason and default to skip; a row matching a stored one shows its category.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { seedTx } from "../helpers/seed";
import { mapleStatement } from "../fixtures/statements/banks";
import { pdfFixture, skipWithoutTidingsPdfs } from "../fixtures/statements";

const NOW = "2025-02-02T12:00:00.000Z";

function form(bytes: Uint8Array, name: string) {
  const fd = new FormData();
  fd.append("file", new File([bytes], name, { type: "application/pdf" }));
  return fd;
}

/** A Maple chequing statement (Dec 15 2024 – Jan 14 2025): opening 2,000.00, these rows, running balances. */
function chequing() {
  const rows: [string, string, number][] = [
    ["Dec 19", "ONLINE BANKING 4471", -50000],
    ["Dec 20", "PAYMENT - THANK YOU VISA", -12000],
    ["Dec 21", "COFFEE HOUSE", -450],
    ["Dec 22", "E-TRANSFER SENT JOHN", -4000],
    ["Dec 23", "TRANSFER TO SAVINGS", -10000],
    ["Dec 24", "GROCER 12", -3217],
  ];
  const fmt = (c: number) => (Math.abs(c) / 100).toLocaleString("en-US", { minimumFractionDigits: 2 });
  let bal = 200_000;
  let out = 0;
  return mapleStatement(
    rows.map(([date, text, c]) => {
      bal += c;
      out += -c;
      return { date, lines: [text], out: fmt(c), balance: fmt(bal) };
    }),
    { opening: "2,000.00", closing: fmt(bal), totalsIn: "0.00", totalsOut: fmt(out) },
  );
}

beforeEach(async () => {
  await env.DB.batch(
    ["statements", "statement_rows", "statement_row_keys", "transactions", "activity_log"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
});

describe("transfers in the review", () => {
  it("marks own-account transfers and card payments with their reason, skips them, imports the rest", async () => {
    // Another account (savings) received 500.00 a day after the chequing statement's 500.00 left.
    const savings = await call("/api/v1/statements/import", {
      method: "POST",
      now: NOW,
      body: {
        filename: "savings.csv",
        metadata: {
          institution: "Lakeshore",
          account_type: "savings",
          period_start: "2024-12-01",
          period_end: "2024-12-31",
          transaction_count: 1,
          parsed_with_ai: false,
        },
        transactions: [
          {
            date: "2024-12-20",
            description: "DEPOSIT",
            amount: 500,
            type: "deposit",
            balance: null,
            cleaned_description: "Deposit",
          },
        ],
        actions: [{ index: 0, action: "skip" }],
      },
    });
    expect(savings.status).toBe(200);
    // A stored alert row for the grocer, with its category.
    await seedTx({
      DateFileName: "2024.12.24_10.00_g.eml",
      Amount: 32.17,
      TransactionType: "purchase",
      Company: "Grocer",
      Category: "groceries",
    });

    const up = await call("/api/v1/statements/upload", {
      method: "POST",
      rawBody: form(chequing(), "chequing.pdf"),
      now: NOW,
    });
    expect(up.status).toBe(200);
    const id = up.body.statement_id as string;
    const rows = (await call(`/api/v1/statements/${id}`, { now: NOW })).body.transactions as any[];
    const view = rows.map((r) => [r.raw_description, r.transfer, r.action]);
    expect(view).toEqual([
      ["ONLINE BANKING 4471", true, "skip"],
      ["PAYMENT - THANK YOU VISA", true, "skip"],
      ["COFFEE HOUSE", false, "import"],
      ["E-TRANSFER SENT JOHN", false, "import"],
      ["TRANSFER TO SAVINGS", true, "skip"],
      ["GROCER 12", false, "skip"],
    ]);
    expect(rows[0].reason).toMatch(/Lakeshore savings shows the opposite 500\.00 on 2024-12-20/);
    expect(rows[1].reason).toMatch(/card payment/);
    expect(rows[4].reason).toMatch(/transfer between your own accounts/);
    // The matched row shows the stored row's category, not the fallback.
    expect(rows[5]).toMatchObject({ reconcile_tier: "matched", suggested_category: "groceries" });

    const imp = await call("/api/v1/statements/import", {
      method: "POST",
      body: { statement_id: id },
      now: NOW,
    });
    expect(imp.body).toMatchObject({ imported: 2 });
    const stored = await env.DB.prepare(
      "SELECT Company FROM transactions WHERE ForwardedTo = 'statement@finance-journal.local' ORDER BY Company",
    ).all<{ Company: string }>();
    expect(stored.results.map((r) => r.Company)).toEqual(["COFFEE HOUSE", "JOHN"]);
  });
});

describe("RBC statement: own-account moves default to skip (issue 34)", () => {
  it("card payments, the savings transfer and an own transfer skip with their reason; a transfer sent to a person imports", async ({
    skip,
  }) => {
    skipWithoutTidingsPdfs(skip);
    const up = await call("/api/v1/statements/upload", {
      method: "POST",
      rawBody: form(pdfFixture("Rbc_Chequing_2025-02-24_to_2025-03-24"), "rbc.pdf"),
      now: "2025-03-30T12:00:00.000Z",
    });
    expect(up.status).toBe(200);
    const rows = (await call(`/api/v1/statements/${up.body.statement_id}`)).body.transactions as any[];
    const byText = (re: RegExp) => rows.filter((r) => re.test(r.raw_description));
    for (const r of byText(/CREDITCARD/))
      expect(r).toMatchObject({
        action: "skip",
        transfer: true,
        reason: expect.stringMatching(/card payment/),
      });
    expect(byText(/SAVINGSTRANSFER/)[0]).toMatchObject({
      action: "skip",
      reason: expect.stringMatching(/savings/),
    });
    expect(byText(/OnlineBankingtransfer/)[0]).toMatchObject({
      action: "skip",
      reason: expect.stringMatching(/own accounts/),
    });
    expect(byText(/transfersent/)[0]).toMatchObject({ action: "import", transfer: false });
    expect(byText(/PayrollDeposit/)[0]).toMatchObject({ action: "import", transfer: false });
  });
});

describe("a card CSV's signs (issue 34)", () => {
  const csv = (name: string) => {
    const fd = new FormData();
    const text =
      "Posted Date,Payee,Address,Amount\n2025-03-02,CORNER COFFEE,Town,4.50\n2025-03-05,PAYMENT THANK YOU,,-200.00\n2025-03-07,BOOKSHOP,City,32.10\n";
    fd.append("file", new File([text], name, { type: "text/csv" }));
    return fd;
  };
  it("reads purchases printed positive as money out, says why, and one click flips it for the layout", async () => {
    const up = await call("/api/v1/statements/upload", {
      method: "POST",
      rawBody: csv("card.csv"),
      now: NOW,
    });
    expect(up.status).toBe(200);
    const id = up.body.statement_id as string;
    const s = (await call(`/api/v1/statements/${id}`)).body;
    const signed = (rows: any[]) => rows.map((r) => `${r.type === "withdrawal" ? "-" : "+"}${r.amount}`);
    expect(signed(s.transactions)).toEqual(["-4.5", "+200", "-32.1"]);
    expect(s.csv_mapping.sign).toMatchObject({
      card: true,
      weak: true,
      because: expect.stringMatching(/payment/),
    });
    // The person reads it the other way: the mapping is confirmed and remembered for this header.
    const put = await call(`/api/v1/statements/${id}/csv-mapping`, {
      method: "PUT",
      body: { institution: "Corner Card", mapping: { ...s.csv_mapping.mapping, negative_is: "withdrawal" } },
    });
    expect(put.status).toBe(200);
    const again = await call("/api/v1/statements/upload", {
      method: "POST",
      rawBody: csv("card-2.csv"),
      now: NOW,
    });
    const s2 = (await call(`/api/v1/statements/${again.body.statement_id}`)).body;
    expect(signed(s2.transactions)).toEqual(["+4.5", "-200", "+32.1"]);
    expect(s2.csv_mapping).toMatchObject({ confirmed: true });
  });
});
