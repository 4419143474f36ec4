import { describe, expect, it } from "vitest";
import { cadence, captureSummary, dayNumber, monthsBefore } from "../../../../src/domains/coverage/rules";

const weekly = ["2024.05.01", "2024.05.08", "2024.05.15", "2024.05.22", "2024.05.29"];

describe("alert cadence", () => {
  it("day arithmetic and the window start", () => {
    expect(dayNumber("2024-03-01") - dayNumber("2024.02.28")).toBe(2);
    expect(monthsBefore("2024-08-31", 6)).toBe("2024.02.29");
    expect(monthsBefore("2024-03-15", 6)).toBe("2023.09.15");
  });

  it("weekly alerts: threshold 14 days, dormant after 42", () => {
    const at = (today: string) => cadence("RBC", weekly, "2024.05.29", today);
    expect(at("2024-06-05")).toEqual({
      institution: "RBC",
      status: "active",
      last_seen_at: "2024-05-29",
      days_since_last_seen: 7,
      median_gap_days: 7,
      threshold_gap_days: 14,
      dormant_cutoff_days: 42,
      event_days: 5,
    });
    expect(at("2024-06-12").status).toBe("active"); // 14 days: not longer than the threshold
    expect(at("2024-06-13").status).toBe("quiet");
    expect(at("2024-07-10").status).toBe("quiet"); // 42 days
    expect(at("2024-07-11").status).toBe("dormant");
  });

  it("daily alerts: floors of 2 and 14 days", () => {
    const daily = ["2024.05.01", "2024.05.02", "2024.05.03", "2024.05.04"];
    const c = cadence("CIBC", daily, "2024.05.04", "2024-05-06");
    expect(c).toMatchObject({
      median_gap_days: 1,
      threshold_gap_days: 2,
      dormant_cutoff_days: 14,
      status: "active",
    });
    expect(cadence("CIBC", daily, "2024.05.04", "2024-05-07").status).toBe("quiet");
  });

  it("bursty gaps widen the threshold through the P90 gap", () => {
    const days = ["2024.01.01", "2024.01.02", "2024.01.03", "2024.01.04", "2024.02.03"];
    // gaps 1,1,1,30: median 1, P90 21.3 → 22
    expect(cadence("MBNA", days, "2024.02.03", "2024-02-10").threshold_gap_days).toBe(22);
  });

  it("fewer than 4 alert days is irregular with no thresholds", () => {
    expect(cadence("PC", ["2024.05.01", "2024.05.20"], "2024.05.20", "2024-06-01")).toEqual({
      institution: "PC",
      status: "irregular",
      last_seen_at: "2024-05-20",
      days_since_last_seen: 12,
      median_gap_days: null,
      threshold_gap_days: null,
      dormant_cutoff_days: null,
      event_days: 2,
    });
  });
});

describe("capture summary", () => {
  it("null without statement rows", () => {
    expect(captureSummary([])).toBeNull();
  });

  it("rolls up overall, by institution and by direction", () => {
    const out = captureSummary([
      { institution: "RBC", dir: "withdrawal", caught: 3, total: 4 },
      { institution: "RBC", dir: "deposit", caught: 0, total: 2 },
      { institution: "CIBC", dir: "withdrawal", caught: 1, total: 3 },
    ]);
    expect(out).toEqual({
      overall: { caught: 4, total: 9, rate: 0.4444 },
      by_institution: [
        { institution: "CIBC", caught: 1, total: 3, rate: 0.3333 },
        { institution: "RBC", caught: 3, total: 6, rate: 0.5 },
      ],
      by_type: [
        { type: "deposit", caught: 0, total: 2, rate: 0 },
        { type: "withdrawal", caught: 4, total: 7, rate: 0.5714 },
      ],
    });
  });
});
