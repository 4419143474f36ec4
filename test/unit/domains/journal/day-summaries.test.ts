import { describe, expect, it } from "vitest";
import {
  cleanSummary,
  daysToSummarize,
  MAX_SUMMARY_CHARS,
  parseBatch,
  summaryDue,
} from "../../../../src/domains/journal/summaries-rules";

describe("day summaries (pure rules)", () => {
  it("only missing days, unless forced; an explicit date list narrows the set", () => {
    const days = ["2024-10-03", "2024-10-01", "2024-10-02"];
    const done = new Set(["2024-10-02"]);
    expect(daysToSummarize(days, done, {})).toEqual(["2024-10-01", "2024-10-03"]);
    expect(daysToSummarize(days, done, { force: true })).toEqual(["2024-10-01", "2024-10-02", "2024-10-03"]);
    expect(daysToSummarize(days, done, { only: ["2024-10-03", "2024-10-02"] })).toEqual(["2024-10-03"]);
  });

  it("reads a batched answer with prose or fences around the JSON; unknown days and junk are dropped", () => {
    const text =
      'Sure!\n```json\n{"2024-10-01": "  Coffee and  groceries. ", "2024-10-09": "x", "2024-10-02": 5}\n```';
    expect(parseBatch(text, ["2024-10-01", "2024-10-02"])).toEqual({ "2024-10-01": "Coffee and groceries." });
    expect(parseBatch("no json here", ["2024-10-01"])).toEqual({});
    expect(parseBatch("{not json}", ["2024-10-01"])).toEqual({});
  });

  it("one line, at most MAX_SUMMARY_CHARS", () => {
    expect(cleanSummary('"Quiet day."')).toBe("Quiet day.");
    expect(cleanSummary("   ")).toBeNull();
    expect(cleanSummary("word ".repeat(100))!.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS + 1);
  });

  it("due exactly at the local HH:MM, in daylight and in standard time", () => {
    const tz = "America/Toronto";
    // 19:00 EDT = 23:00Z (before the fall-back on 2024-11-03); 19:00 EST = 00:00Z next day.
    expect(summaryDue(new Date("2024-11-02T23:00:00Z"), tz, "19:00")).toEqual({
      due: true,
      date: "2024-11-02",
    });
    expect(summaryDue(new Date("2024-11-03T23:00:00Z"), tz, "19:00").due).toBe(false);
    expect(summaryDue(new Date("2024-11-04T00:00:00Z"), tz, "19:00")).toEqual({
      due: true,
      date: "2024-11-03",
    });
    expect(summaryDue(new Date("2024-11-04T00:01:00Z"), tz, "19:00").due).toBe(false);
  });

  it("a time the spring-forward skips fires at the first minute after the gap", () => {
    const tz = "America/Toronto"; // 2024-03-10 02:00 EST → 03:00 EDT (07:00Z)
    expect(summaryDue(new Date("2024-03-10T06:59:00Z"), tz, "02:30").due).toBe(false);
    expect(summaryDue(new Date("2024-03-10T07:00:00Z"), tz, "02:30")).toEqual({
      due: true,
      date: "2024-03-10",
    });
    expect(summaryDue(new Date("2024-03-10T07:01:00Z"), tz, "02:30").due).toBe(false);
  });

  it("midnight schedule fires at 00:00 local", () => {
    expect(summaryDue(new Date("2024-06-01T04:00:00Z"), "America/Toronto", "00:00")).toEqual({
      due: true,
      date: "2024-06-01",
    });
  });
});
