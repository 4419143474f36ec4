import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { AiProvider } from "../../src/ai/provider";
import { matchOverride } from "../../src/domains/overrides/match";
import { fixedClock } from "../../src/lib/clock";
import { countingD1 } from "../../bench/lib/d1-count";
import { plainCtx } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";

const OV = "/api/v1/overrides";
const NOW = "2025-06-15T12:00:00Z";
const get = (q = "") => call(`${OV}/suggestions${q}`, { now: NOW });

let seq = 0;
async function correction(
  company: string,
  category: string,
  opts: { source?: string; month?: string; at?: string } = {},
) {
  seq += 1;
  const audit = {
    source: opts.source ?? "manual",
    reviewed_at: opts.at ?? `2025-06-01T00:00:${String(seq % 60).padStart(2, "0")}Z`,
  };
  await env.DB.prepare(
    `INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, Company, Category, Amount, CategoryAudit)
     VALUES ('me@example.com', ?, ?, ?, ?, 12.5, ?)`,
  )
    .bind(
      `${opts.month ?? "2025.06"}.01_10.00_s${seq}.eml`,
      `sh${seq}`,
      company,
      category,
      JSON.stringify(audit),
    )
    .run();
}

beforeEach(async () => {
  await env.DB.batch(
    [
      "transactions",
      "overrides",
      "merchant_aliases",
      "dismissed_suggestions",
      "config_versions",
      "categories",
    ].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
  );
});

describe("GET /api/v1/overrides/suggestions", () => {
  it("suggests a company corrected at least twice to one category, spelled as the list spells it", async () => {
    await correction("SAVE ON FOODS", "groceries");
    await correction("Save On Foods", "groceries", { source: "manual_edit", at: "2025-06-10T08:00:00Z" });
    await correction("save on foods", "groceries", { source: "manual_bulk" });
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    expect(res.body.suggestions[0]).toMatchObject({
      suggested_category: "Groceries",
      correction_count: 3,
      last_corrected: "2025-06-10T08:00:00Z",
    });
    expect(res.body.suggestions[0].company.toLowerCase()).toBe("save on foods");
  });

  it("leaves out single corrections, split decisions, non-manual sources, old rows and deleted rows", async () => {
    await correction("ONCE", "Gifts");
    await correction("SPLIT", "Gifts");
    await correction("SPLIT", "Gifts");
    await correction("SPLIT", "Hobbies");
    await correction("SPLIT", "Hobbies");
    await correction("MODEL", "Pets", { source: "ai" });
    await correction("MODEL", "Pets", { source: "override" });
    await correction("OLD", "Pets", { month: "2024.01" });
    await correction("OLD", "Pets", { month: "2024.02" });
    await correction("GONE", "Pets");
    await correction("GONE", "Pets");
    await env.DB.prepare("UPDATE transactions SET DeletedAt = 'x' WHERE Company = 'GONE'").run();
    expect((await get()).body).toEqual({ suggestions: [], count: 0 });
    // A wider window reaches the old corrections.
    expect((await get("?months=24")).body.suggestions.map((s: { company: string }) => s.company)).toEqual([
      "OLD",
    ]);
  });

  it("a clear majority still wins; most-corrected first", async () => {
    for (let i = 0; i < 3; i++) await correction("MAJOR", "Fitness");
    await correction("MAJOR", "Health Care");
    await correction("TWO", "Pets");
    await correction("TWO", "Pets");
    const res = await get();
    expect(
      res.body.suggestions.map((s: { company: string; correction_count: number }) => [
        s.company,
        s.correction_count,
      ]),
    ).toEqual([
      ["MAJOR", 3],
      ["TWO", 2],
    ]);
  });

  it("hidden when an override (any tier) already gives that category, shown when it gives another", async () => {
    await correction("COSTCO #55", "Groceries");
    await correction("COSTCO #55", "Groceries");
    await correction("NETFLIX", "Subscriptions");
    await correction("NETFLIX", "Subscriptions");
    await call(`${OV}/COSTCO`, { method: "PUT", body: { category: "Groceries" } });
    await call(`${OV}/NETFLIX`, { method: "PUT", body: { category: "Entertainment" } });
    const res = await get();
    expect(res.body.suggestions.map((s: { company: string }) => s.company)).toEqual(["NETFLIX"]);
  });

  it("dismiss hides it until a newer correction; undismiss shows it again; unknown key is 404", async () => {
    await correction("PETSMART", "Pets", { at: "2025-06-01T00:00:00Z" });
    await correction("PETSMART", "Pets", { at: "2025-06-02T00:00:00Z" });
    await env.DB.prepare("DELETE FROM activity_log").run();
    const counter = countingD1(env.DB);
    const dismissed = await call(`${OV}/suggestions/dismissed`, {
      method: "POST",
      body: { company: "PetSmart", category: "PETS" },
      now: "2025-06-05T00:00:00Z",
      env: { DB: counter.db },
    });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.detail).toContain("petsmart|pets");
    // Each dismissal write carries its entry in its own batch.
    expectEntryInBatch(counter, "dismissed_suggestions");
    const entry = async () => (await call("/api/v1/activity?limit=1")).body.entries[0];
    expect(await entry()).toMatchObject({
      resource_id: "petsmart|pets",
      summary: dismissed.body.detail,
      before: {},
      after: { key: "petsmart|pets", company: "PetSmart", category: "PETS" },
      reversible: true,
    });
    expect((await get()).body.count).toBe(0);
    const backup = (await (await env.FILES.get("backups/config/dismissed_suggestions.json"))!.json()) as any;
    expect(backup.items[0]).toMatchObject({ key: "petsmart|pets", dismissed_at: "2025-06-05T00:00:00.000Z" });

    counter.reset();
    const undo = await call(`${OV}/suggestions/dismissed/${encodeURIComponent("PETSMART|Pets")}`, {
      method: "DELETE",
      env: { DB: counter.db },
    });
    expect(undo.status).toBe(200);
    expectEntryInBatch(counter, "dismissed_suggestions");
    expect(await entry()).toMatchObject({ summary: "Restored suggestion petsmart|pets", after: null });
    expect((await get()).body.count).toBe(1);
    expectEnvelope(
      await call(`${OV}/suggestions/dismissed/${encodeURIComponent("petsmart|pets")}`, { method: "DELETE" }),
      404,
      "NOT_FOUND",
    );

    await call(`${OV}/suggestions/dismissed`, {
      method: "POST",
      body: { company: "PETSMART", category: "Pets" },
      now: "2025-06-05T00:00:00Z",
    });
    await correction("PETSMART", "Pets", { at: "2025-06-06T00:00:00Z" });
    expect((await get()).body.suggestions[0]).toMatchObject({ company: "PETSMART", correction_count: 3 });
  });

  it("a dismissal and its undo revert through the ledger (3 D1 trips); a dismissal changed since is stale", async () => {
    await correction("PETSMART", "Pets", { at: "2025-06-01T00:00:00Z" });
    await correction("PETSMART", "Pets", { at: "2025-06-02T00:00:00Z" });
    const entryOf = async (res: Promise<{ status: number; headers: Headers }>) => {
      const r = await res;
      expect(r.status).toBe(200);
      return r.headers.get("x-activity-id")!;
    };
    const dismiss = (now: string) =>
      entryOf(
        call(`${OV}/suggestions/dismissed`, {
          method: "POST",
          body: { company: "PetSmart", category: "Pets" },
          now,
        }),
      );
    const revert = (id: string, db: D1Database = env.DB) =>
      call(`/api/v1/activity/${id}/revert`, { method: "POST", now: NOW, env: { DB: db } });
    const dismissed = await dismiss("2025-06-05T00:00:00Z");
    const counter = countingD1(env.DB);
    expect((await revert(dismissed, counter.db)).status).toBe(200);
    expectEntryInBatch(counter, "dismissed_suggestions");
    expect((await get()).body.count).toBe(1);

    const again = await dismiss("2025-06-06T00:00:00Z");
    const undismissed = await entryOf(
      call(`${OV}/suggestions/dismissed/petsmart%7Cpets`, { method: "DELETE" }),
    );
    // The dismissal was removed since `again`: its revert is stale; the undismiss reverts.
    expect(expectEnvelope(await revert(again), 409, "stale_revert").details.changed_fields).toContain("key");
    expect((await revert(undismissed)).status).toBe(200);
    expect((await get()).body.count).toBe(0);
    const row = await env.DB.prepare(
      "SELECT dismissed_at FROM dismissed_suggestions WHERE key = 'petsmart|pets'",
    ).first();
    expect(row).toEqual({ dismissed_at: "2025-06-06T00:00:00.000Z" });

    // Dismissed again while dismissed: its undo gives the earlier dismissal back, not none.
    const twice = await dismiss("2025-06-07T00:00:00Z");
    expect((await revert(twice)).status).toBe(200);
    expect((await get()).body.count).toBe(0);
    const kept = await env.DB.prepare(
      "SELECT dismissed_at FROM dismissed_suggestions WHERE key = 'petsmart|pets'",
    ).first();
    expect(kept).toEqual({ dismissed_at: "2025-06-06T00:00:00.000Z" });
  });

  it("422 for months out of range or not a number, and for a bad dismissal body", async () => {
    expectEnvelope(await get("?months=0"), 422, "VALIDATION_ERROR");
    expectEnvelope(await get("?months=25"), 422, "VALIDATION_ERROR");
    expectEnvelope(await get("?months=abc"), 422, "VALIDATION_ERROR");
    const e = expectEnvelope(
      await call(`${OV}/suggestions/dismissed`, { method: "POST", body: { company: "X" } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(e.details.errors[0].loc).toContain("category");
    expectEnvelope(
      await call(`${OV}/suggestions/dismissed`, { method: "POST", body: { company: "", category: "Pets" } }),
      422,
      "VALIDATION_ERROR",
    );
  });
});

/** Deterministic embeddings: character-trigram counts, so similar names get similar vectors. */
function trigrams(text: string): number[] {
  const v = new Array<number>(64).fill(0);
  const s = `  ${text.toLowerCase()}  `;
  for (let i = 0; i + 3 <= s.length; i++) {
    let h = 2166136261;
    for (const ch of s.slice(i, i + 3)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    v[(h >>> 0) % 64]! += 1;
  }
  return v;
}

const fakeAi = (fail = false): AiProvider => ({
  model: "fake",
  embeddingModel: `fake-embed-${fail ? "down" : "ok"}`,
  callTool: async () => ({}),
  generateText: async () => "",
  embed: async (texts) => {
    if (fail) throw new Error("embeddings down");
    return texts.map(trigrams);
  },
});

describe("matchOverride fuzzy tier (service, fake embeddings)", () => {
  const ctx = plainCtx(fixedClock(NOW));

  it("lists fuzzy candidates at or above min_score, best first, at most 5", async () => {
    await call(`${OV}/STARBUCKS%20COFFEE`, { method: "PUT", body: { category: "Coffee & Cafes" } });
    await call(`${OV}/COSTCO%20WHOLESALE`, { method: "PUT", body: { category: "Groceries" } });
    const res = await matchOverride(ctx, {
      input: { company: "STARBUCKS COFFE", include_history: false, min_score: 0.5 },
      ai: fakeAi(),
    });
    expect(res.tier).toBe("fuzzy");
    expect(res.matched_rule).toBe("STARBUCKS COFFEE");
    expect(res.confidence).toBeGreaterThan(0.8);
    expect(res.confidence).toBeLessThan(1);
    expect(res.candidates.every((c) => c.confidence >= 0.5)).toBe(true);
    expect(res.candidates.length).toBeLessThanOrEqual(5);
  });

  it("include_history adds past companies; embedding failures leave only the deterministic tiers", async () => {
    await correction("BLUE BOTTLE CAFE", "Coffee & Cafes");
    const withHistory = await matchOverride(ctx, {
      input: { company: "BLUE BOTTLE CAFE #2", include_history: true, min_score: 0.7 },
      ai: fakeAi(),
    });
    expect(withHistory.candidates[0]).toMatchObject({ matched_rule: "BLUE BOTTLE CAFE", tier: "fuzzy" });
    await call(`${OV}/BLUE%20BOTTLE%20CAFE`, { method: "PUT", body: { category: "Coffee & Cafes" } });
    const down = await matchOverride(ctx, {
      input: { company: "BLUE BOTTLE CAFE #2", include_history: true, min_score: 0.7 },
      ai: fakeAi(true),
    });
    expect(down.candidates).toEqual([
      { category: "Coffee & Cafes", matched_rule: "BLUE BOTTLE CAFE", confidence: 1, tier: "normalized" },
    ]);
  });
});
