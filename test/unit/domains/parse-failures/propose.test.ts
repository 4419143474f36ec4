// Issue 37, point 5: the model's reading of an alert is kept only when the email prints each value.
import { describe, expect, it } from "vitest";
import { checkProposal, proposalPrompt } from "../../../../src/domains/parse-failures/propose";

const email = (text: string) => ({
  fromEmail: "info@bank.example",
  subject: "Card",
  text,
  sentIso: "2026-10-12",
});
const csob = email(
  "Dne 14. října 2022 byla provedena platba kartou.\nČástka: 1.234,50 EUR\nMísto: Capi Hnizdo a.s.\nDěkujeme",
);
const answer = {
  amount: 1234.5,
  currency: "EUR",
  date: "2022-10-14",
  time: null,
  merchant: "Capi Hnizdo a.s.",
  transaction_type: "purchase",
};

describe("checkProposal", () => {
  it("keeps a reading whose every value is printed: grouped comma decimals, a Czech month in the genitive", () => {
    expect(checkProposal(csob, answer)).toEqual({
      ok: true,
      reading: {
        amount: 123450,
        currency: "EUR",
        date: "2022-10-14",
        dateIsSent: false,
        time: null,
        company: "Capi Hnizdo a.s.",
        transactionType: "purchase",
      },
    });
    // Case and spacing aside, the merchant is the email's; no currency said: the printed one.
    const r = checkProposal(csob, { ...answer, merchant: "capi  hnizdo A.S.", currency: null });
    expect(r).toMatchObject({ ok: true, reading: { company: "capi hnizdo A.S.", currency: "EUR" } });
  });

  it("refuses each value the email does not print, in words", () => {
    const why = (over: Record<string, unknown>) => {
      const r = checkProposal(csob, { ...answer, ...over });
      return r.ok ? "kept" : r.why;
    };
    expect(why({ amount: 1234 })).toMatch(/amount .* does not appear/);
    expect(why({ amount: 12345 })).toMatch(/amount .* does not appear/);
    expect(why({ amount: 1234.567 })).toMatch(/no usable amount/);
    expect(why({ date: "2022-10-15" })).toBe("the date 2022-10-15 does not appear in the email");
    expect(why({ date: "14.10.2022" })).toMatch(/is not a day/);
    expect(why({ date: null })).toBe("it gave no date, but the email prints one");
    expect(why({ merchant: "Capi Hnizdo Praha" })).toMatch(/merchant “Capi Hnizdo Praha” does not appear/);
    expect(why({ merchant: "Capi Hniz" })).toMatch(/does not appear/);
    expect(why({ merchant: "  " })).toBe("it named no merchant or payee");
    expect(why({ currency: "CZK" })).toBe("the email prints the amount in EUR, not in CZK");
    expect(why({ currency: "dollars" })).toMatch(/not a currency code/);
    expect(why({ transaction_type: "gift" })).toMatch(/not a reading of the alert \(transaction_type/);
  });

  it("an email that prints no date takes its sent day; a time is kept only when printed", () => {
    const plain = email("You spent $12.00 at KIOSK at 9:41 AM. Card ending 1234.");
    const r = checkProposal(plain, {
      ...answer,
      amount: 12,
      currency: null,
      date: null,
      time: "09:41",
      merchant: "KIOSK",
    });
    expect(r).toMatchObject({
      ok: true,
      reading: { date: "2026-10-12", dateIsSent: true, time: "09:41", currency: null },
    });
    const t = checkProposal(plain, {
      ...answer,
      amount: 12,
      currency: "USD",
      date: null,
      time: "10:00",
      merchant: "KIOSK",
    });
    expect(t).toMatchObject({ ok: false, why: "the currency USD is not printed in the email" });
    const u = checkProposal(plain, {
      ...answer,
      amount: 12,
      currency: null,
      date: null,
      time: "10:00",
      merchant: "KIOSK",
    });
    expect(u).toMatchObject({ ok: true, reading: { time: null } });
  });

  it("the prompt is bounded", () => {
    expect(proposalPrompt(email("x".repeat(50_000))).length).toBeLessThan(8_200);
  });
});
