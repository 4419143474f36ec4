import { describe, expect, it } from "vitest";
import { hashInput, suffixed, transactionHash, validateRecord } from "../../../src/ingest/dedup";

const base = {
  forwardedTo: "me@example.com",
  institution: "CIBC",
  amount: 12.5,
  company: "FRESH MART",
  date: "10/15/2024 14:30 PDT",
  transactionType: "purchase",
};

describe("dedup hash", () => {
  it("is SHA-256 over the pipe-joined fields", async () => {
    expect(hashInput(base)).toBe("me@example.com|CIBC|12.50|FRESH MART|10/15/2024 14:30 PDT|purchase");
    const h = await transactionHash(base);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
  });

  it("trims a trailing CR from CRLF mail (same hash as the LF copy)", async () => {
    expect(await transactionHash({ ...base, company: "FRESH MART\r" })).toBe(await transactionHash(base));
  });

  it("a withdrawal without a company hashes with an empty part", () => {
    expect(hashInput({ ...base, company: null, transactionType: "withdrawal" })).toContain("|12.50||");
  });

  it("validateRecord rejects what the store must not take", () => {
    const ok = { Amount: 1, Company: null, ForwardedTo: "a@b", TransactionType: "withdrawal" };
    expect(validateRecord(ok)).toEqual([]);
    expect(validateRecord({ ...ok, Amount: Number.NaN })).not.toEqual([]);
    expect(validateRecord({ ...ok, Amount: -1 })).not.toEqual([]);
    expect(validateRecord({ ...ok, Company: "x".repeat(501) })).not.toEqual([]);
    expect(validateRecord({ ...ok, ForwardedTo: "" })).not.toEqual([]);
  });

  it("suffixes a colliding DateFileName before .eml", () => {
    expect(suffixed("2024.10.15_14.30_abc.eml", 1)).toBe("2024.10.15_14.30_abc.eml");
    expect(suffixed("2024.10.15_14.30_abc.eml", 2)).toBe("2024.10.15_14.30_abc_2.eml");
  });
});
