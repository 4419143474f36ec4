import { describe, expect, it } from "vitest";
import { dateFileName, displayDate, localParts, parseEmailDate } from "../../../src/ingest/dates";

describe("email dates", () => {
  it("PST and PDT always parse as Pacific, whatever the configured zone", () => {
    expect(parseEmailDate("Tue, 15 Oct 2024 14:30:00 PDT")?.toISOString()).toBe("2024-10-15T21:30:00.000Z");
    expect(parseEmailDate("Fri, 1 Mar 2024 08:05:00 PST")?.toISOString()).toBe("2024-03-01T16:05:00.000Z");
    const toronto = localParts(parseEmailDate("Tue, 15 Oct 2024 14:30:00 PDT")!, "America/Toronto");
    expect(displayDate(toronto)).toBe("10/15/2024 17:30 EDT");
  });

  it("numeric offsets and other obs-zones", () => {
    expect(parseEmailDate("Mon, 2 Sep 2024 23:59:59 +0000")?.toISOString()).toBe("2024-09-02T23:59:59.000Z");
    expect(parseEmailDate("2 Sep 24 10:00 -0430")?.toISOString()).toBe("2024-09-02T14:30:00.000Z");
    expect(parseEmailDate("Thu, 5 Dec 2024 09:00:00 EST")?.toISOString()).toBe("2024-12-05T14:00:00.000Z");
    // The one abbreviation table forwarded date lines use too (CET is an hour east of UTC).
    expect(parseEmailDate("Thu, 5 Dec 2024 09:00:00 CET")?.toISOString()).toBe("2024-12-05T08:00:00.000Z");
  });

  it("unparseable dates give null", () => {
    expect(parseEmailDate("yesterday")).toBeNull();
    expect(parseEmailDate(null)).toBeNull();
  });

  it("DateFileName and Date in the configured zone (default Los Angeles)", () => {
    const at = new Date("2024-01-02T03:04:00Z");
    const la = localParts(at, "America/Los_Angeles");
    expect(dateFileName(la, "abc123def456")).toBe("2024.01.01_19.04_abc123def456.eml");
    expect(displayDate(la)).toBe("01/01/2024 19:04 PST");
    expect(displayDate(localParts(at, "America/New_York"))).toBe("01/01/2024 22:04 EST");
    expect(displayDate(localParts(new Date("2024-07-01T00:30:00Z"), "America/Los_Angeles"))).toBe(
      "06/30/2024 17:30 PDT",
    );
  });

  it("midnight is 00, never 24", () => {
    const p = localParts(new Date("2024-05-05T07:00:00Z"), "America/Los_Angeles");
    expect(p.hour).toBe("00");
  });
});
