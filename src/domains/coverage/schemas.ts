import { z } from "zod";

const rate = z.number().describe("caught ÷ total, a fraction from 0 to 1");

export const CaptureBucket = z
  .object({ caught: z.number().int(), total: z.number().int(), rate })
  .meta({ id: "CaptureBucket", description: "Overall caught/total/rate roll-up for the capture summary." });

export const CaptureBucketInstitution = z
  .object({ institution: z.string(), caught: z.number().int(), total: z.number().int(), rate })
  .meta({ id: "CaptureBucketInstitution", description: "Per-institution capture-rate breakdown." });

export const CaptureBucketType = z
  .object({ type: z.string(), caught: z.number().int(), total: z.number().int(), rate })
  .meta({
    id: "CaptureBucketType",
    description: "Per-direction capture-rate breakdown (withdrawal / deposit).",
  });

export const CaptureSummary = z
  .object({
    overall: CaptureBucket,
    by_institution: z.array(CaptureBucketInstitution),
    by_type: z.array(CaptureBucketType),
  })
  .meta({
    id: "CaptureSummary",
    description:
      "Share of statement rows that an alert email already captured: the rows every uploaded statement " +
      "reconciled as matched, ambiguous or a suspected duplicate against a row an alert email delivered " +
      "(never a hand-added or statement-imported row), as each statement's own `capture` counts them. " +
      "Null until a statement has rows.",
  });

const days = z.number().int().nullable();

export const CoverageInstitution = z
  .object({
    institution: z.string(),
    status: z
      .enum(["active", "quiet", "dormant", "irregular"])
      .describe("irregular: fewer than 4 alert days in the window, so no cadence (thresholds null)"),
    last_seen_at: z.string().nullable().describe("Date (YYYY-MM-DD) of the latest alert"),
    days_since_last_seen: days,
    median_gap_days: z.number().nullable().describe("Median gap between alert days in the window"),
    threshold_gap_days: days.describe("Silent longer than this: quiet (max of 2, P90 gap, 2 × median)"),
    dormant_cutoff_days: days.describe("Silent longer than this: dormant (max of 14, 3 × threshold)"),
    event_days: z.number().int().describe("Distinct alert days in the window"),
  })
  .meta({
    id: "CoverageInstitution",
    description: "One institution's alert cadence over the trailing window.",
  });

export const CoverageResponse = z
  .object({
    institutions: z.array(CoverageInstitution),
    capture: z.union([CaptureSummary, z.null()]),
    window_months: z.number().int(),
    checked_at: z.string(),
  })
  .meta({ id: "CoverageResponse" });
export type CoverageResponse = z.infer<typeof CoverageResponse>;
