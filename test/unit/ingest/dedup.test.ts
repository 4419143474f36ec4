import { asCents } from "../../../src/lib/money";
import { describe, expect, it } from "vitest";
import { hashAmount, hashInput, suffixed, transactionHash, validateRecord } from "../../../src/ingest/dedup";

const base = {
  forwardedTo: "me@example.com",
  institution: "CIBC",
  amount: asCents(1250),
  company: "FRESH MART",
  date: "10/15/2024 14:30 PDT",
  transactionType: "purchase",
};

describe("dedup hash", () => {
  it("is SHA-256 over the pipe-joined fields", async () => {
    expect(hashInput(base)).toBe("me@example.com|CIBC|12.50|FRESH MART|10/15/2024 14:30 PDT|purchase");
    // Pinned: the hash of stored rows (written when amounts were decimal) must not change.
    expect(await transactionHash(base)).toBe(
      "4ac962281f9707654f9af0d065f86c8323960e02941890593408614acf107851",
    );
  });

  it("renders the amount from cents exactly as the decimal amount's toFixed(2) did", () => {
    for (const c of [0, 1, 5, 10, 99, 100, 101, 1250, 168700, 2341768, 99999999, 9999999999]) {
      expect(hashAmount(asCents(c))).toBe((c / 100).toFixed(2));
    }
    for (let c = 0; c < 100_000; c += 7) expect(hashAmount(asCents(c))).toBe((c / 100).toFixed(2));
    expect(hashAmount(asCents(-150))).toBe((-1.5).toFixed(2));
  });

  it("trims a trailing CR from CRLF mail (same hash as the LF copy)", async () => {
    expect(await transactionHash({ ...base, company: "FRESH MART\r" })).toBe(await transactionHash(base));
  });

  it("a withdrawal without a company hashes with an empty part", () => {
    expect(hashInput({ ...base, company: null, transactionType: "withdrawal" })).toContain("|12.50||");
  });

  it("validateRecord rejects what the store must not take", () => {
    const ok = { Amount: asCents(100), Company: null, ForwardedTo: "a@b", TransactionType: "withdrawal" };
    expect(validateRecord(ok)).toEqual([]);
    expect(validateRecord({ ...ok, Amount: asCents(Number.NaN) })).not.toEqual([]);
    expect(validateRecord({ ...ok, Amount: asCents(1.5) })).not.toEqual([]);
    expect(validateRecord({ ...ok, Amount: asCents(10_000_000_000) })).not.toEqual([]);
    expect(validateRecord({ ...ok, Amount: asCents(-1) })).not.toEqual([]);
    expect(validateRecord({ ...ok, Company: "x".repeat(501) })).not.toEqual([]);
    expect(validateRecord({ ...ok, ForwardedTo: "" })).not.toEqual([]);
  });

  it("suffixes a colliding DateFileName before .eml", () => {
    expect(suffixed("2024.10.15_14.30_abc.eml", 1)).toBe("2024.10.15_14.30_abc.eml");
    expect(suffixed("2024.10.15_14.30_abc.eml", 2)).toBe("2024.10.15_14.30_abc_2.eml");
  });
});
