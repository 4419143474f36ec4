import { asCents } from "../../../../src/lib/money";
import { describe, expect, it } from "vitest";
import { checkFile, sniff } from "../../../../src/domains/attachments/filetype";
import { contentDisposition } from "../../../../src/lib/served-file";
import { amountsIn, validateReceipt } from "../../../../src/domains/attachments/receipt-rules";
import {
  rankCandidates,
  type ReceiptFacts,
  searchBounds,
  type TxFacts,
  tierOf,
} from "../../../../src/domains/attachments/rules";

const r: ReceiptFacts = { totalCents: asCents(3055), day: "2024-10-14", merchantKey: "corner bistro" };
const tx = (over: Partial<TxFacts>): TxFacts => ({
  txId: "t",
  day: "2024-10-14",
  amountCents: asCents(3055),
  company: "Corner Bistro",
  merchantKey: "corner bistro",
  category: "restaurant/dining",
  hasReceipt: false,
  ...over,
});

describe("tiers", () => {
  it("T1 needs all three; the 0.02 edge is inclusive", () => {
    expect(tierOf(r, tx({ amountCents: asCents(3057) }))).toBe(1);
    expect(tierOf(r, tx({ amountCents: asCents(3058) }))).toBe(3); // restaurant: inside the tip band
    expect(tierOf(r, tx({ amountCents: asCents(3058), category: "groceries" }))).toBeNull();
    expect(tierOf(r, tx({ merchantKey: "other" }))).toBe(2);
    expect(tierOf({ ...r, merchantKey: "" }, tx({ merchantKey: "" }))).toBe(2);
    expect(tierOf(r, tx({ day: "2024-10-17" }))).toBe(2);
    expect(tierOf(r, tx({ day: "2024-10-18" }))).toBeNull();
  });

  it("the tip band reaches +20% (cents exact) and never below the receipt", () => {
    expect(tierOf(r, tx({ amountCents: asCents(3666) }))).toBe(3);
    expect(tierOf(r, tx({ amountCents: asCents(3669) }))).toBeNull();
    expect(tierOf(r, tx({ amountCents: asCents(2900) }))).toBeNull();
    expect(tierOf(r, tx({ amountCents: asCents(3400), category: "Coffee & Cafes" }))).toBe(3);
  });

  it("auto-link only on exactly one T1 without a receipt, judged beyond the 8 shown", () => {
    expect(rankCandidates(r, [tx({ txId: "a" })]).autoLink?.tx.txId).toBe("a");
    expect(rankCandidates(r, [tx({ txId: "a" }), tx({ txId: "b" })]).autoLink).toBeNull();
    expect(rankCandidates(r, [tx({ txId: "a", hasReceipt: true })]).autoLink).toBeNull();
    const many = Array.from({ length: 9 }, (_, i) => tx({ txId: `t${i}`, merchantKey: "x" }));
    const hidden = tx({ txId: "z", hasReceipt: true });
    const out = rankCandidates(r, [...many, hidden, tx({ txId: "a" })]);
    expect(out.shown).toHaveLength(8);
    expect(out.shown[0]!.tx.txId).toBe("a");
    expect(out.autoLink).toBeNull(); // two T1 rows in all, one of them demoted past the cut
  });

  it("the window crosses a month edge only near one", () => {
    expect(searchBounds("2024-10-31")).toEqual({ lo: "2024.10.28", hi: "2024.11.04" });
    expect(searchBounds("2024-03-01")).toEqual({ lo: "2024.02.27", hi: "2024.03.05" });
    expect(searchBounds("2024-10-15")).toEqual({ lo: "2024.10.12", hi: "2024.10.19" });
  });
});

describe("file checks", () => {
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]);
  it("three witnesses", () => {
    expect(checkFile("a.JPG", "image/jpeg", jpeg)).toEqual({ ok: true, family: "jpeg" });
    expect(checkFile("a.jpg", "", jpeg)).toEqual({ ok: true, family: "jpeg" });
    expect(checkFile("a.jpg", "text/html", jpeg).ok).toBe(false);
    expect(checkFile("a.exe", "image/jpeg", jpeg).ok).toBe(false);
    expect(checkFile("a.pdf", "application/pdf", jpeg).ok).toBe(false);
    expect(sniff(new TextEncoder().encode("\u0000\u0000\u0000\u0018ftypmif1"))).toBe("heic");
    expect(sniff(new TextEncoder().encode("\u0000\u0000\u0000\u0018ftypavif"))).toBeNull();
  });

  it("Content-Disposition never carries a raw quote, backslash or line break", () => {
    const cd = contentDisposition("inline", 'x"\\\r\nSet-Cookie: a=b; é.pdf');
    expect(cd).not.toMatch(/[\r\n]/);
    expect(cd).toContain("filename*=UTF-8''x%22%5C%0D%0ASet-Cookie%3A%20a%3Db%3B%20%C3%A9.pdf");
    expect(cd.match(/filename="([^"]*)"/)![1]).toBe("x____Set-Cookie: a=b_ _.pdf");
  });
});

describe("receipt validation", () => {
  const good = { merchant: "Bistro", date: "2024-10-14", total: 30.55 };
  it("amounts printed with cents", () => {
    expect([...amountsIn("Total $1,030.55 and 12 items, 9.25")]).toEqual([103055, 925]);
  });
  it("fails closed and keeps a parse whose items do not reconcile", () => {
    expect(validateReceipt({ ...good, date: "2024-02-30" }, null).ok).toBe(false);
    expect(validateReceipt({ ...good, total: "30.55" }, "TOTAL 30.55").ok).toBe(true);
    expect(validateReceipt(good, "TOTAL 30.56").ok).toBe(false);
    const dropped = validateReceipt({ ...good, line_items: [{ description: "x", amount: 30.49 }] }, null);
    expect(dropped).toMatchObject({ ok: true, read: { total: 30.55 } });
    expect(dropped.ok && dropped.read.line_items).toBeFalsy();
    const kept = validateReceipt({ ...good, line_items: [{ description: "x", amount: 30.5 }] }, null);
    expect(kept.ok && kept.read.line_items).toHaveLength(1);
  });
});
