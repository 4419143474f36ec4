import { env } from "cloudflare:test";
import { type Db, getDb } from "../../src/db";
import { beforeEach, describe, expect, it } from "vitest";
import { listOverrides } from "../../src/domains/overrides/service";
import { getResolverIndex } from "../../src/categorize/resolver";
import { resolveDeterministic } from "../../src/categorize/rules";
import { type Clock, fixedClock } from "../../src/lib/clock";
import { countingD1 } from "../../bench/lib/d1-count";
import { brokenDb } from "../helpers/broken";
import { seedToken } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";

/** The override tiers (0-2) alone: what categorize() finds before any model. */
const resolveOverride = async (db: Db, clock: Clock, company: string) =>
  resolveDeterministic(await getResolverIndex(db, clock), company);

const enc = encodeURIComponent;
const OV = "/api/v1/overrides";
const put = (company: string, body: unknown, headers?: Record<string, string>) =>
  call(`${OV}/${enc(company)}`, { method: "PUT", body, headers });
const del = (company: string) => call(`${OV}/${enc(company)}`, { method: "DELETE" });

async function reset() {
  await env.DB.batch(
    ["categories", "overrides", "merchant_aliases", "config_versions", "activity_log", "api_tokens"].map(
      (t) => env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
  await env.FILES.delete("backups/config/overrides.json");
}

beforeEach(reset);

describe("GET /api/v1/overrides", () => {
  it("is empty with version 0 at first", async () => {
    const res = await call(OV);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ overrides: [], count: 0, version: 0 });
  });

  it("lists by company (case-insensitive order) with the version", async () => {
    await put("zeller", { category: "Groceries" });
    await put("Amazon", { category: "Technology" });
    const res = await call(OV);
    expect(res.body.overrides.map((o: { company: string }) => o.company)).toEqual(["Amazon", "zeller"]);
    expect(res.body.count).toBe(2);
    expect(res.body.version).toBe(2);
  });
});

describe("PUT /api/v1/overrides/{company}", () => {
  it("creates an override (company URL-encoded, category stored as the list spells it)", async () => {
    const res = await put("STARBUCKS #1234 / VANCOUVER", { category: "coffee & cafes" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      overrides: [{ company: "STARBUCKS #1234 / VANCOUVER", category: "Coffee & Cafes" }],
      count: 1,
      version: 1,
    });
  });

  it("replaces case-insensitively, keeping the latest spelling of the key", async () => {
    await put("starbucks", { category: "Coffee & Cafes" });
    const res = await put("STARBUCKS", { category: "Restaurant/Dining" });
    expect(res.body.overrides).toEqual([{ company: "STARBUCKS", category: "Restaurant/Dining" }]);
  });

  it("accepts a category added by the user", async () => {
    await call("/api/v1/categories", { method: "POST", body: { name: "Books" } });
    expect((await put("INDIGO", { category: "BOOKS" })).body.overrides[0].category).toBe("Books");
  });

  it("invalidates the resolver cache at once", async () => {
    const clock = fixedClock("2025-03-01T00:00:00Z");
    expect(await resolveOverride(getDb(env.DB), clock, "NETFLIX.COM")).toBeNull();
    await put("netflix.com", { category: "Subscriptions" });
    expect((await resolveOverride(getDb(env.DB), clock, "NETFLIX.COM"))?.category).toBe("Subscriptions");
    await del("netflix.com");
    expect(await resolveOverride(getDb(env.DB), clock, "NETFLIX.COM")).toBeNull();
  });

  it("writes the R2 backup; reads fall back to it when D1 fails", async () => {
    await put("COSTCO", { category: "Groceries" });
    const saved = (await (await env.FILES.get("backups/config/overrides.json"))!.json()) as any;
    expect(saved).toEqual({ version: 1, items: [{ company: "COSTCO", category: "Groceries" }] });
    const down = await listOverrides({ env: { ...env, DB: brokenDb } });
    expect(down).toEqual({ overrides: [{ company: "COSTCO", category: "Groceries" }], count: 1, version: 1 });
  });

  it("422 when the category is not in the list", async () => {
    const e = expectEnvelope(await put("COSTCO", { category: "Warehouse" }), 422, "VALIDATION_ERROR");
    expect(e.details.errors[0].loc).toEqual(["body", "category"]);
    expect((await call(OV)).body.count).toBe(0);
  });

  const invalid: [string, unknown][] = [
    ["missing category", {}],
    ["empty category", { category: " " }],
    ["non-string category", { category: 3 }],
    ["unknown field", { category: "Groceries", extra: 1 }],
  ];
  it.each(invalid)("422 for %s", async (_n, body) => {
    const e = expectEnvelope(await put("COSTCO", body), 422, "VALIDATION_ERROR");
    expect(e.details.errors.length).toBeGreaterThan(0);
  });

  it("422 for a blank or over-long company", async () => {
    expectEnvelope(await put("   ", { category: "Groceries" }), 422, "VALIDATION_ERROR");
    const e = expectEnvelope(await put("x".repeat(201), { category: "Groceries" }), 422, "VALIDATION_ERROR");
    expect(e.details.errors[0].loc).toContain("company");
  });
});

describe("DELETE /api/v1/overrides/{company}", () => {
  it("removes (any case), then 404", async () => {
    await put("Uber Eats", { category: "Restaurant/Dining" });
    const res = await del("UBER EATS");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await call(OV)).body).toEqual({ overrides: [], count: 0, version: 2 });
    expectEnvelope(await del("Uber Eats"), 404, "NOT_FOUND");
  });
});

describe("GET /api/v1/overrides/match", () => {
  beforeEach(async () => {
    await put("STARBUCKS", { category: "Coffee & Cafes" });
    await put("Shell", { category: "Gasoline" });
    await call("/api/v1/merchant-aliases/AMZN%20MKTP", { method: "PUT", body: { canonical_name: "Amazon" } });
    await put("amazon", { category: "Technology" });
  });

  it("reports the exact tier", async () => {
    const counter = countingD1(env.DB);
    const res = await call(`${OV}/match?company=starbucks`, { env: { DB: counter.db } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      category: "Coffee & Cafes",
      matched_rule: "STARBUCKS",
      confidence: 1,
      tier: "exact",
      candidates: [{ category: "Coffee & Cafes", matched_rule: "STARBUCKS", confidence: 1, tier: "exact" }],
    });
  });

  it("reports the normalized tier (store numbers, region codes)", async () => {
    const res = await call(`${OV}/match?company=${enc("SHELL #0423, VANCOUVER BC")}`);
    expect(res.body).toMatchObject({ tier: "normalized", matched_rule: "Shell", category: "Gasoline" });
  });

  it("reports the alias tier", async () => {
    const res = await call(`${OV}/match?company=${enc("AMZN MKTP #77")}`);
    expect(res.body).toMatchObject({ tier: "alias", matched_rule: "amazon", category: "Technology" });
  });

  it("all null and no candidates when nothing matches (no model configured: no fuzzy tier)", async () => {
    const res = await call(`${OV}/match?company=UNKNOWN%20PLACE`);
    expect(res.body).toEqual({
      category: null,
      matched_rule: null,
      confidence: null,
      tier: null,
      candidates: [],
    });
  });

  it("422 without a company or with min_score out of range", async () => {
    expectEnvelope(await call(`${OV}/match`), 422, "VALIDATION_ERROR");
    expectEnvelope(await call(`${OV}/match?company=`), 422, "VALIDATION_ERROR");
    expectEnvelope(await call(`${OV}/match?company=x&min_score=1.5`), 422, "VALIDATION_ERROR");
    expectEnvelope(await call(`${OV}/match?company=x&include_history=maybe`), 422, "VALIDATION_ERROR");
  });
});

describe("GET /api/v1/overrides/duplicates", () => {
  it("groups keys that collapse to one normalized key, flagging disagreement", async () => {
    await put("STARBUCKS #123", { category: "Coffee & Cafes" });
    await put("Starbucks 0456", { category: "Coffee & Cafes" });
    await put("SHELL #1", { category: "Gasoline" });
    await put("Shell, Burnaby BC", { category: "Auto Maintenance" });
    await put("COSTCO", { category: "Groceries" });
    const res = await call(`${OV}/duplicates`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      count: 2,
      groups: [
        {
          normalized_key: "shell",
          members: [
            { company: "SHELL #1", category: "Gasoline" },
            { company: "Shell, Burnaby BC", category: "Auto Maintenance" },
          ],
          unanimous_category: null,
        },
        {
          normalized_key: "starbucks",
          members: [
            { company: "STARBUCKS #123", category: "Coffee & Cafes" },
            { company: "Starbucks 0456", category: "Coffee & Cafes" },
          ],
          unanimous_category: "Coffee & Cafes",
        },
      ],
    });
  });
});

describe("POST /api/v1/overrides/consolidate", () => {
  beforeEach(async () => {
    await put("STARBUCKS #123", { category: "Coffee & Cafes" });
    await put("Starbucks 0456", { category: "Restaurant/Dining" });
    await put("COSTCO", { category: "Groceries" });
  });
  const body = (extra: Record<string, unknown> = {}) => ({
    normalized_key: "starbucks",
    canonical_company: "Starbucks",
    category: "coffee & cafes",
    members: ["starbucks #123", "STARBUCKS 0456"],
    ...extra,
  });
  const consolidate = (b: unknown) => call(`${OV}/consolidate`, { method: "POST", body: b });

  it("replaces the members by one override", async () => {
    const counter = countingD1(env.DB);
    const res = await call(`${OV}/consolidate`, { method: "POST", body: body(), env: { DB: counter.db } });
    expect(res.status).toBe(200);
    // Its entry (the group before, the one override after) rides in the consolidation's batch.
    expectEntryInBatch(counter, "overrides");
    const [entry] = (await call("/api/v1/activity?limit=1")).body.entries;
    expect(entry).toMatchObject({
      operation_id: "consolidateOverrides",
      resource_id: "starbucks",
      summary: res.body.detail,
      after: { overrides: [{ company: "Starbucks", category: "Coffee & Cafes" }] },
      reversible: true,
    });
    expect(entry.before.overrides).toHaveLength(2);
    expect(res.body.canonical).toBe("Starbucks");
    expect(res.body.detail).toContain("2 overrides");
    expect((await call(OV)).body.overrides).toEqual([
      { company: "COSTCO", category: "Groceries" },
      { company: "Starbucks", category: "Coffee & Cafes" },
    ]);
    expect((await call(`${OV}/duplicates`)).body.count).toBe(0);
  });

  it("a revert puts the members back and removes the canonical one; stale when a member came back", async () => {
    const before = (await call(OV)).body.overrides;
    const res = await consolidate(body());
    expect(res.status).toBe(200);
    const entry = res.headers.get("x-activity-id")!;
    const counter = countingD1(env.DB);
    const undo = await call(`/api/v1/activity/${entry}/revert`, { method: "POST", env: { DB: counter.db } });
    expect(undo.status, undo.text).toBe(200);
    expectEntryInBatch(counter, "overrides");
    expect((await call(OV)).body.overrides).toEqual(before);

    const again = await consolidate(body());
    await call(`${OV}/STARBUCKS%20%23123`, { method: "PUT", body: { category: "Groceries" } });
    const stale = expectEnvelope(
      await call(`/api/v1/activity/${again.headers.get("x-activity-id")}/revert`, { method: "POST" }),
      409,
      "stale_revert",
    );
    expect(stale.details.changed_fields).toEqual(["overrides"]);
    expect((await call(OV)).body.count).toBe(3);
    // force: the members as they were, the canonical gone.
    const forced = await call(`/api/v1/activity/${again.headers.get("x-activity-id")}/revert?force=true`, {
      method: "POST",
    });
    expect(forced.status, forced.text).toBe(200);
    expect((await call(OV)).body.overrides).toEqual(before);
  });

  it("the canonical company may be one of the members", async () => {
    const res = await consolidate(body({ canonical_company: "STARBUCKS #123" }));
    expect(res.status).toBe(200);
    expect((await call(OV)).body.overrides).toContainEqual({
      company: "STARBUCKS #123",
      category: "Coffee & Cafes",
    });
    expect((await call(OV)).body.count).toBe(2);
  });

  it("changes nothing and answers 422 when a member is missing or foreign, or the category unknown", async () => {
    const missing = expectEnvelope(
      await consolidate(body({ members: ["STARBUCKS #123", "STARBUCKS #999"] })),
      422,
      "VALIDATION_ERROR",
    );
    expect(missing.details.errors[0].loc).toEqual(["body", "members", "STARBUCKS #999"]);
    expectEnvelope(
      await consolidate(body({ members: ["STARBUCKS #123", "COSTCO"] })),
      422,
      "VALIDATION_ERROR",
    );
    expectEnvelope(await consolidate(body({ category: "Nope" })), 422, "VALIDATION_ERROR");
    expectEnvelope(await consolidate(body({ members: [] })), 422, "VALIDATION_ERROR");
    expectEnvelope(await consolidate({ normalized_key: "starbucks" }), 422, "VALIDATION_ERROR");
    expect((await call(OV)).body.count).toBe(3);
  });

  it("409 when the canonical company already has an override outside the group", async () => {
    await put("Starbucks", { category: "Coffee & Cafes" });
    expectEnvelope(await consolidate(body()), 409, "CONFLICT");
    expect((await call(OV)).body.count).toBe(4);
  });
});

describe("activity ledger", () => {
  const entries = async () => (await call("/api/v1/activity")).body.entries;
  const revert = (id: string, force = false) =>
    call(`/api/v1/activity/${id}/revert${force ? "?force=true" : ""}`, { method: "POST" });
  /** A revert that lands, its entry in the restore's batch. */
  const revertLands = async (id: string) => {
    const counter = countingD1(env.DB);
    const res = await call(`/api/v1/activity/${id}/revert`, { method: "POST", env: { DB: counter.db } });
    expect(res.status, res.text).toBe(200);
    expectEntryInBatch(counter, "overrides");
  };

  it("journals put (create) with images and reverts it by deleting the override", async () => {
    await put("COSTCO", { category: "Groceries" });
    const [entry] = await entries();
    expect(entry).toMatchObject({
      operation_id: "putOverride",
      resource_id: "COSTCO",
      before: {},
      after: { company: "COSTCO", category: "Groceries" },
      reversible: true,
    });
    expect((await revert(entry.id)).status).toBe(200);
    expect((await call(OV)).body.count).toBe(0);
  });

  it("reverts an update to the previous category", async () => {
    await put("COSTCO", { category: "Groceries" });
    await put("Costco", { category: "Home Goods" });
    const [entry] = await entries();
    expect(entry.before).toEqual({ company: "COSTCO", category: "Groceries" });
    await revertLands(entry.id);
    expect((await call(OV)).body.overrides).toEqual([{ company: "COSTCO", category: "Groceries" }]);
  });

  it("reverts a delete by restoring the override", async () => {
    await put("COSTCO", { category: "Groceries" });
    await del("COSTCO");
    const [entry] = await entries();
    expect(entry).toMatchObject({ operation_id: "deleteOverride", after: null, reversible: true });
    await revertLands(entry.id);
    expect((await call(OV)).body.overrides).toEqual([{ company: "COSTCO", category: "Groceries" }]);
    const clock = fixedClock("2025-03-01T00:00:00Z");
    expect((await resolveOverride(getDb(env.DB), clock, "costco"))?.category).toBe("Groceries");
  });

  it("refuses a stale revert (409 stale_revert) unless forced", async () => {
    await put("COSTCO", { category: "Groceries" });
    const [first] = await entries();
    await put("COSTCO", { category: "Home Goods" });
    const e = expectEnvelope(await revert(first.id), 409, "stale_revert");
    expect(e.details.changed_fields).toContain("category");
    expect((await revert(first.id, true)).status).toBe(200);
    expect((await call(OV)).body.count).toBe(0);
  });
});

describe("token scopes", () => {
  it("a read token may read overrides but not write them (403 FORBIDDEN)", async () => {
    const { token } = await seedToken("read", "r");
    const headers = { Authorization: `Bearer ${token}` };
    expect((await call(OV, { headers })).status).toBe(200);
    expect((await call(`${OV}/match?company=x`, { headers })).status).toBe(200);
    expect((await call(`${OV}/suggestions`, { headers })).status).toBe(200);
    expectEnvelope(await put("COSTCO", { category: "Groceries" }, headers), 403, "FORBIDDEN");
    expectEnvelope(await call(`${OV}/COSTCO`, { method: "DELETE", headers }), 403, "FORBIDDEN");
    expectEnvelope(
      await call(`${OV}/suggestions/dismissed`, {
        method: "POST",
        body: { company: "a", category: "b" },
        headers,
      }),
      403,
      "FORBIDDEN",
    );
  });
});
