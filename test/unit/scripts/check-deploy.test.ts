// npm run check:deploy's comparison (scripts/lib/deploy-limits.mjs), fed measured numbers: each value
// is printed beside its limit, and a breach of any one fails the check. The build itself is not run here.
import { describe, expect, it } from "vitest";
import {
  activeMs,
  checkDeploy,
  type DeployMeasures,
  LIMITS,
  PAID_KINDS,
} from "../../../scripts/lib/deploy-limits.mjs";

// Today's Worker, as check:deploy measured it.
const today: DeployMeasures = {
  gzipBytes: 2_063_000,
  rawBytes: 8_773_650,
  startupMs: 594,
  startupHow: "local profile",
  crons: 3,
  // What wrangler.toml has today: every reviewed kind but key-value Durable Objects and Email.
  bindingKinds: PAID_KINDS.filter((k) => k !== "Durable Object (key-value)" && k !== "Email"),
  bindingCount: 27,
  varsCount: 21,
  compatibilityDate: "2026-11-01",
  today: "2026-11-28",
};

const lineOf = (lines: string[], what: string) => lines.find((l) => l.slice(6).startsWith(what)) ?? "";

describe("check:deploy against the Workers Paid plan", () => {
  it("passes today's Worker, each value beside its limit", () => {
    const { ok, lines } = checkDeploy(today);
    expect(ok).toBe(true);
    expect(lineOf(lines, "bundle, gzip")).toMatch(
      /^PASS .* 2\.06 MB .*limit 3\.00 MB \(house budget; Paid plan allows 10\.00 MB/,
    );
    expect(lineOf(lines, "bundle, uncompressed")).toMatch(/^PASS .* 8\.77 MB .*limit 64\.00 MB/);
    expect(lineOf(lines, "startup")).toMatch(/^PASS .* 594 ms .*limit 1000 ms \(local profile\)/);
    expect(lineOf(lines, "Cron Triggers")).toMatch(/^PASS .* 3 .*limit 250 per account on Paid \(Free: 5\)/);
    expect(lineOf(lines, "binding kinds")).toMatch(
      /^PASS .* 8 .*each on Paid: D1, R2, KV, Queue producer, Queue consumer, Durable Object \(SQLite\), Assets/,
    );
    expect(lineOf(lines, "environment variables")).toMatch(/^PASS .* 21 .*limit 128/);
    expect(lineOf(lines, "bindings")).toMatch(/^info .* 27 /);
    expect(lineOf(lines, "compatibility_date")).toMatch(/^PASS .* 2026-11-01 /);
  });

  it("holds the Worker to our 3 MB compressed budget, not the plan's 10 MB", () => {
    const { ok, lines } = checkDeploy({ ...today, gzipBytes: LIMITS.gzipBytes + 1 });
    expect(ok).toBe(false);
    expect(lineOf(lines, "bundle, gzip")).toMatch(/^FAIL .* 3\.00 MB/);
    expect(checkDeploy({ ...today, gzipBytes: LIMITS.gzipBytes }).ok).toBe(true);
  });

  it.each([
    ["bundle, uncompressed", { rawBytes: 64_000_001 }],
    ["startup", { startupMs: 1000.5 }],
    ["Cron Triggers", { crons: 251 }],
    ["environment variables", { varsCount: 129 }],
    ["compatibility_date", { compatibilityDate: undefined }],
    ["compatibility_date", { compatibilityDate: "2026-12-01" }],
    ["compatibility_date", { compatibilityDate: "someday" }],
  ] as const)("fails on a breach of %s", (what, change) => {
    const { ok, lines } = checkDeploy({ ...today, ...change });
    expect(ok).toBe(false);
    expect(lines.filter((l) => l.startsWith("FAIL"))).toEqual([lineOf(lines, what)]);
  });

  it("fails on a binding kind nobody has checked against the plan, and names it", () => {
    const { ok, lines } = checkDeploy({ ...today, bindingKinds: [...today.bindingKinds, "Vectorize"] });
    expect(ok).toBe(false);
    expect(lineOf(lines, "binding kinds")).toMatch(/^FAIL .*not in the reviewed list: Vectorize/);
  });

  it("says which kinds Free lacks without failing Paid", () => {
    const { ok, lines } = checkDeploy({ ...today, bindingKinds: ["D1", "Durable Object (key-value)"] });
    expect(ok).toBe(true);
    expect(lineOf(lines, "binding kinds")).toContain("(not on Free: Durable Object (key-value))");
  });

  it("states an unmeasured startup as not measured, and does not fail on it", () => {
    const { ok, lines } = checkDeploy({ ...today, startupMs: null });
    expect(ok).toBe(true);
    expect(lineOf(lines, "startup")).toMatch(/^---- .*not measured .*limit 1000 ms/);
  });

  it("counts a startup profile's active time, idle samples left out", () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: "(root)" } },
        { id: 2, callFrame: { functionName: "(idle)" } },
        { id: 3, callFrame: { functionName: "" } },
      ],
      samples: [2, 3, 3, 2, 3],
      timeDeltas: [400_000, 1_000, 2_500, 50_000, 500],
    };
    expect(activeMs(profile)).toBe(4);
  });
});
