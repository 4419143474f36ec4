import { env } from "cloudflare:test";
import { type Db, getDb } from "../../src/db";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { listAliases } from "../../src/domains/merchant-aliases/service";
import { getResolverIndex } from "../../src/categorize/resolver";
import { resolveDeterministic } from "../../src/categorize/rules";
import { type Clock, fixedClock } from "../../src/lib/clock";
import { brokenDb } from "../helpers/broken";
import { seedToken } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";

/** The override tiers (0-2) alone: what categorize() finds before any model. */
const resolveOverride = async (db: Db, clock: Clock, company: string) =>
  resolveDeterministic(await getResolverIndex(db, clock), company);

const enc = encodeURIComponent;
const AL = "/api/v1/merchant-aliases";
const put = (raw: string, body: unknown, headers?: Record<string, string>) =>
  call(`${AL}/${enc(raw)}`, { method: "PUT", body, headers });
const del = (raw: string, headers?: Record<string, string>) =>
  call(`${AL}/${enc(raw)}`, { method: "DELETE", headers });
const clock = fixedClock("2025-03-01T00:00:00Z");

beforeEach(async () => {
  await env.DB.batch(
    ["overrides", "merchant_aliases", "config_versions", "activity_log", "api_tokens"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
  await env.FILES.delete("backups/config/merchant_aliases.json");
});

describe("GET /api/v1/merchant-aliases", () => {
  it("is empty with version 0, then lists by raw name with the version", async () => {
    expect((await call(AL)).body).toEqual({ aliases: [], count: 0, version: 0 });
    await put("WHOLEFDS MKT", { canonical_name: "Whole Foods" });
    await put("AMZN MKTP", { canonical_name: "Amazon" });
    const res = await call(AL);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      aliases: [
        { raw_name: "AMZN MKTP", canonical_name: "Amazon" },
        { raw_name: "WHOLEFDS MKT", canonical_name: "Whole Foods" },
      ],
      count: 2,
      version: 2,
    });
  });
});

describe("PUT /api/v1/merchant-aliases/{raw_name}", () => {
  it("stores the alias, replaces it case-insensitively, and the resolver uses it at once", async () => {
    await call("/api/v1/overrides/Amazon", { method: "PUT", body: { category: "Technology" } });
    expect(await resolveOverride(getDb(env.DB), clock, "AMZN MKTP CA #12")).toBeNull();
    const res = await put("AMZN Mktp CA", { canonical_name: "Amazon" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await resolveOverride(getDb(env.DB), clock, "AMZN MKTP CA #12")).toMatchObject({
      category: "Technology",
      source: "override_alias",
    });
    await put("amzn mktp ca", { canonical_name: "Amazon.ca" });
    expect((await call(AL)).body.aliases).toEqual([
      { raw_name: "amzn mktp ca", canonical_name: "Amazon.ca" },
    ]);
  });

  it("writes the R2 backup; reads fall back to it when D1 fails", async () => {
    expect((await put("WHOLEFDS MKT", { canonical_name: "Whole Foods" })).status).toBe(200);
    const saved = (await (await env.FILES.get("backups/config/merchant_aliases.json"))!.json()) as any;
    expect(saved).toEqual({ version: 1, items: [{ raw_name: "WHOLEFDS MKT", canonical: "Whole Foods" }] });
    const down = await listAliases({ env: { ...env, DB: brokenDb } });
    expect(down).toEqual({
      aliases: [{ raw_name: "WHOLEFDS MKT", canonical_name: "Whole Foods" }],
      count: 1,
      version: 1,
    });
  });

  const invalid: [string, string, unknown, string][] = [
    ["missing canonical_name", "X", {}, "canonical_name"],
    ["empty canonical_name", "X", { canonical_name: "  " }, "canonical_name"],
    ["names equal after normalization", "STARBUCKS #12", { canonical_name: "Starbucks" }, "canonical_name"],
    ["processor prefix only", "SQ *BLUE BOTTLE", { canonical_name: "Blue Bottle" }, "canonical_name"],
    ["raw name without letters", "#123", { canonical_name: "Starbucks" }, "raw_name"],
    ["unknown field", "X", { canonical_name: "Y", z: 1 }, ""],
    ["blank raw name", " ", { canonical_name: "Y" }, "raw_name"],
  ];
  it.each(invalid)("422 for %s", async (_n, raw, body, field) => {
    const e = expectEnvelope(await put(raw, body), 422, "VALIDATION_ERROR");
    if (field) expect(e.details.errors.map((x: { loc: string[] }) => x.loc.at(-1))).toContain(field);
  });
});

describe("DELETE /api/v1/merchant-aliases/{raw_name}", () => {
  it("removes (any case) and the resolver forgets it at once; then 404", async () => {
    await call("/api/v1/overrides/Amazon", { method: "PUT", body: { category: "Technology" } });
    await put("AMZN MKTP", { canonical_name: "Amazon" });
    expect(await resolveOverride(getDb(env.DB), clock, "AMZN MKTP")).not.toBeNull();
    const res = await del("amzn mktp");
    expect(res.body).toEqual({ ok: true });
    expect(await resolveOverride(getDb(env.DB), clock, "AMZN MKTP")).toBeNull();
    expectEnvelope(await del("AMZN MKTP"), 404, "NOT_FOUND");
  });
});

describe("activity ledger", () => {
  const entries = async () => (await call("/api/v1/activity")).body.entries;
  const revert = (id: string) => call(`/api/v1/activity/${id}/revert`, { method: "POST" });

  it("journals put with images; reverting a create removes the alias", async () => {
    await put("AMZN MKTP", { canonical_name: "Amazon" });
    const [entry] = await entries();
    expect(entry).toMatchObject({
      operation_id: "putMerchantAlias",
      resource_id: "AMZN MKTP",
      before: {},
      after: { raw_name: "AMZN MKTP", canonical_name: "Amazon" },
      reversible: true,
    });
    const counter = countingD1(env.DB);
    const undo = await call(`/api/v1/activity/${entry.id}/revert`, {
      method: "POST",
      env: { DB: counter.db },
    });
    expect(undo.status, undo.text).toBe(200);
    expectEntryInBatch(counter, "merchant_aliases");
    expect((await call(AL)).body.count).toBe(0);
  });

  it("reverting an update restores the old canonical name; an alias changed since is stale", async () => {
    await put("AMZN MKTP", { canonical_name: "Amazon" });
    const [created] = await entries();
    await put("AMZN MKTP", { canonical_name: "Amazon Marketplace" });
    const stale = expectEnvelope(await revert(created.id), 409, "stale_revert");
    expect(stale.details.changed_fields).toEqual(["canonical_name"]);
    const [entry] = await entries();
    expect((await revert(entry.id)).status).toBe(200);
    expect((await call(AL)).body.aliases).toEqual([{ raw_name: "AMZN MKTP", canonical_name: "Amazon" }]);
  });

  it("reverting a delete restores the alias; a second revert is 409", async () => {
    await put("AMZN MKTP", { canonical_name: "Amazon" });
    await del("AMZN MKTP");
    const [entry] = await entries();
    expect(entry).toMatchObject({ operation_id: "deleteMerchantAlias", after: null, reversible: true });
    expect((await revert(entry.id)).status).toBe(200);
    expect((await call(AL)).body.aliases).toEqual([{ raw_name: "AMZN MKTP", canonical_name: "Amazon" }]);
    expectEnvelope(await revert(entry.id), 409, "CONFLICT");
  });
});

describe("token scopes", () => {
  it("a read token may list aliases but not change them (403)", async () => {
    const { token } = await seedToken("read", "r");
    const headers = { Authorization: `Bearer ${token}` };
    expect((await call(AL, { headers })).status).toBe(200);
    expectEnvelope(await put("A B", { canonical_name: "C D" }, headers), 403, "FORBIDDEN");
    expectEnvelope(await del("A B", headers), 403, "FORBIDDEN");
  });
});
