import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { bearer, resetState, seedToken } from "../helpers/auth";
import { brokenDb } from "../helpers/broken";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";

const NOW = "2024-03-15T20:00:00Z";
const CONFIG = "/api/v1/budget/config?year=2024";
const put = (body: unknown, headers?: Record<string, string>) =>
  call(CONFIG, { method: "PUT", body, headers, now: NOW });
const get = () => call(CONFIG, { now: NOW });
const putGroups = (body: unknown, query = "?year=2024") =>
  call(`/api/v1/groups${query}`, { method: "PUT", body, now: NOW });

const example = (v: { t: number | null; g: number | null }, extra: Record<string, unknown> = {}) => ({
  spending_ceiling: 48000,
  categories: {
    Groceries: { target: 7200, input_mode: "monthly", category_type: "variable" },
    rent: { target: 24000, input_mode: "monthly", category_type: "fixed" },
  },
  groups: [{ name: "Essentials", categories: ["groceries", "Rent"] }],
  targets_version: v.t,
  groups_version: v.g,
  ...extra,
});

beforeEach(async () => {
  await resetState();
  await env.DB.prepare("DELETE FROM budget_config").run();
});

describe("budget config: round trip and versions", () => {
  it("reads an empty year with versions 0", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      year: 2024,
      spending_ceiling: 0,
      categories: {},
      groups: [],
      targets_version: 0,
      groups_version: 0,
      allocated_total: 0,
      unallocated: 0,
    });
  });

  it("creates with null versions, derives monthly amounts, bumps both versions on each write", async () => {
    const created = await put(example({ t: null, g: null }));
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      year: 2024,
      spending_ceiling: 48000,
      categories: {
        groceries: { target: 7200, input_mode: "monthly", monthly_amount: 600, category_type: "variable" },
        rent: { target: 24000, input_mode: "monthly", monthly_amount: 2000, category_type: "fixed" },
      },
      groups: [{ name: "Essentials", categories: ["groceries", "rent"] }],
      targets_version: 1,
      groups_version: 1,
      allocated_total: 31200,
      unallocated: 16800,
    });
    expect((await get()).body).toEqual(created.body);

    const updated = await put(example({ t: 1, g: 1 }, { spending_ceiling: 30000 }));
    expect(updated.body).toMatchObject({ targets_version: 2, groups_version: 2, unallocated: -1200 });
    // Another year is another pair of items.
    expect((await call("/api/v1/budget/config?year=2025", { now: NOW })).body.targets_version).toBe(0);
  });

  it("0 is accepted like null for an item that does not exist yet", async () => {
    expect((await put(example({ t: 0, g: 0 }))).status).toBe(200);
  });

  it("a stale version is 409 CONFLICT and nothing is written", async () => {
    await put(example({ t: null, g: null }));
    await put(example({ t: 1, g: 1 }));
    const before = (await get()).body;
    const stale = expectEnvelope(
      await put(example({ t: 1, g: 2 }, { spending_ceiling: 1 })),
      409,
      "CONFLICT",
    );
    expect(stale.details).toMatchObject({ year: 2024 });
    // only the groups version stale: the targets are not written either
    expectEnvelope(await put(example({ t: 2, g: 1 }, { spending_ceiling: 1 })), 409, "CONFLICT");
    // null while one exists
    expectEnvelope(await put(example({ t: null, g: 2 }, { spending_ceiling: 1 })), 409, "CONFLICT");
    expect((await get()).body).toEqual(before);
  });

  it("two writers racing with the same version: exactly one wins", async () => {
    await put(example({ t: null, g: null }));
    const [a, b] = await Promise.all([
      put(example({ t: 1, g: 1 }, { spending_ceiling: 1111 })),
      put(example({ t: 1, g: 1 }, { spending_ceiling: 2222 })),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? a : b;
    const final = (await get()).body;
    expect(final.spending_ceiling).toBe(winner.body.spending_ceiling);
    expect(final).toMatchObject({ targets_version: 2, groups_version: 2 });
  });

  it("two creators racing with null: exactly one wins", async () => {
    const [a, b] = await Promise.all([
      put(example({ t: null, g: null })),
      put(example({ t: null, g: null })),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await get()).body.targets_version).toBe(1);
  });
});

describe("budget config: validation", () => {
  const bad = async (body: unknown, loc?: (string | number)[]) => {
    const e = expectEnvelope(await put(body), 422, "VALIDATION_ERROR");
    if (loc) expect(e.details.errors.map((x: { loc: unknown }) => x.loc)).toContainEqual(loc);
    return e;
  };
  const withCat = (c: Record<string, unknown>) =>
    example(
      { t: null, g: null },
      { categories: { rent: { target: 1, input_mode: "yearly", category_type: "fixed", ...c } } },
    );

  it("422 for a negative target or ceiling, unknown enums, missing keys; nothing written", async () => {
    await bad(withCat({ target: -1 }));
    await bad(example({ t: null, g: null }, { spending_ceiling: -5 }));
    await bad(withCat({ input_mode: "weekly" }));
    await bad(withCat({ category_type: "sometimes" }));
    const { targets_version: _t, ...noVersion } = example({ t: null, g: null });
    await bad(noVersion);
    const { categories: _c, ...noCategories } = example({ t: null, g: null });
    await bad(noCategories);
    await bad(example({ t: null, g: null }, { categories: { rent: { target: 5, input_mode: "yearly" } } }));
    await bad(example({ t: null, g: null }, { targets_version: 1.5 }));
    expectEnvelope(await call("/api/v1/budget/config?year=2019", { now: NOW }), 422, "VALIDATION_ERROR");
    expectEnvelope(await call("/api/v1/budget/config", { now: NOW }), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await call(CONFIG, { method: "PUT", rawBody: "{", headers: { "content-type": "application/json" } }),
      422,
      "VALIDATION_ERROR",
    );
    expect((await get()).body.targets_version).toBe(0);
  });

  it("422 for categories equal up to case and a category in two groups", async () => {
    await bad(
      example(
        { t: null, g: null },
        {
          categories: {
            Rent: { target: 1, input_mode: "yearly", category_type: "fixed" },
            rent: { target: 2, input_mode: "yearly", category_type: "fixed" },
          },
        },
      ),
    );
    const cats = (...keys: string[]) =>
      Object.fromEntries(keys.map((k) => [k, { target: 1, input_mode: "yearly", category_type: "fixed" }]));
    await bad(example({ t: null, g: null }, { categories: cats(" rent", "rent") }), [
      "body",
      "categories",
      "rent",
    ]);
    await bad(example({ t: null, g: null }, { categories: cats("  ") }));
    await bad(
      example(
        { t: null, g: null },
        {
          groups: [
            { name: "A", categories: ["rent"] },
            { name: "B", categories: ["RENT"] },
          ],
        },
      ),
      ["body", "groups", 1, "categories"],
    );
    expect((await get()).body.targets_version).toBe(0);
  });
});

describe("groups", () => {
  it("shares the groups item with the budget config; the year defaults to the current local year", async () => {
    expect((await call("/api/v1/groups", { now: NOW })).body).toEqual({ year: 2024, groups: [], version: 0 });
    const created = await putGroups({ groups: [{ name: "Fun", categories: ["Travel"] }], version: null }, "");
    expect(created.body).toEqual({
      year: 2024,
      groups: [{ name: "Fun", categories: ["travel"] }],
      version: 1,
    });
    expect((await get()).body).toMatchObject({
      groups_version: 1,
      targets_version: 0,
      groups: created.body.groups,
    });
    // the budget config write must now name groups version 1
    expectEnvelope(await put(example({ t: null, g: null })), 409, "CONFLICT");
    expect((await put(example({ t: null, g: 1 }))).body.groups_version).toBe(2);
    expectEnvelope(await putGroups({ groups: [], version: 1 }), 409, "CONFLICT");
    expect((await putGroups({ groups: [], version: 2 })).body.version).toBe(3);
  });

  it("racing group writers: exactly one wins; validation is 422", async () => {
    const [a, b] = await Promise.all([
      putGroups({ groups: [{ name: "A", categories: [] }], version: null }),
      putGroups({ groups: [{ name: "B", categories: [] }], version: null }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expectEnvelope(
      await putGroups({ groups: [{ name: "", categories: [] }], version: 1 }),
      422,
      "VALIDATION_ERROR",
    );
    expectEnvelope(await putGroups({ groups: [] }), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await putGroups({
        groups: [
          { name: "x", categories: [] },
          { name: "X", categories: [] },
        ],
        version: 1,
      }),
      422,
      "VALIDATION_ERROR",
    );
    expectEnvelope(await call("/api/v1/groups?year=2100", { now: NOW }), 422, "VALIDATION_ERROR");
  });
});

describe("budget config: ledger and revert", () => {
  const entry = async (operation: string) =>
    (await call(`/api/v1/activity?operation=${operation}&limit=1`)).body.entries[0];
  const revert = (id: string, force = false) =>
    call(`/api/v1/activity/${id}/revert${force ? "?force=true" : ""}`, { method: "POST", now: NOW });

  it("stages before/after images; revert restores the earlier config as a new version", async () => {
    await put(example({ t: null, g: null }));
    const create = await entry("putBudgetConfig");
    expect(create).toMatchObject({ reversible: true, resource_id: "default:2024", before: {} });
    expect(create.after.categories.rent.target).toBe(24000);

    await put(example({ t: 1, g: 1 }, { spending_ceiling: 1, groups: [] }));
    const update = await entry("putBudgetConfig");
    expect(update.before.spending_ceiling).toBe(48000);
    expect(update.after).toMatchObject({ spending_ceiling: 1, groups: [] });

    const counter = countingD1(env.DB);
    const undo = await call(`/api/v1/activity/${update.id}/revert`, {
      method: "POST",
      now: NOW,
      env: { DB: counter.db },
    });
    expect(undo.status, undo.text).toBe(200);
    expectEntryInBatch(counter, "budget_config");
    const restored = (await get()).body;
    expect(restored).toMatchObject({ spending_ceiling: 48000, targets_version: 3, groups_version: 3 });
    expect(restored.groups).toEqual([{ name: "Essentials", categories: ["groceries", "rent"] }]);
    expectEnvelope(await revert(update.id), 409, "CONFLICT");

    // The create is current again: reverting it restores the empty defaults (versions keep rising).
    expect((await revert(create.id)).status).toBe(200);
    expect((await get()).body).toMatchObject({
      spending_ceiling: 0,
      categories: {},
      groups: [],
      targets_version: 4,
    });
  });

  it("stale revert when the groups changed since; force applies anyway", async () => {
    await put(example({ t: null, g: null }));
    const create = await entry("putBudgetConfig");
    await putGroups({ groups: [], version: 1 });
    expectEnvelope(await revert(create.id), 409, "stale_revert");
    expect((await revert(create.id, true)).status).toBe(200);
    expect((await get()).body.spending_ceiling).toBe(0);
  });

  it("groups writes are reversible too", async () => {
    await putGroups({ groups: [{ name: "One", categories: ["a"] }], version: null });
    await putGroups({ groups: [{ name: "Two", categories: ["b"] }], version: 1 });
    const e = await entry("putGroups");
    expect(e).toMatchObject({ reversible: true, before: { groups: [{ name: "One", categories: ["a"] }] } });
    expect((await revert(e.id)).status).toBe(200);
    expect((await call("/api/v1/groups?year=2024", { now: NOW })).body).toEqual({
      year: 2024,
      groups: [{ name: "One", categories: ["a"] }],
      version: 3,
    });
  });
});

describe("budget config: scope and backups", () => {
  it("a read token may GET but a PUT is 403 FORBIDDEN", async () => {
    const { token } = await seedToken("read");
    expect((await call(CONFIG, { headers: bearer(token), now: NOW })).status).toBe(200);
    expectEnvelope(await put(example({ t: null, g: null }), bearer(token)), 403, "FORBIDDEN");
    expectEnvelope(
      await call("/api/v1/groups", {
        method: "PUT",
        body: { groups: [], version: null },
        headers: bearer(token),
      }),
      403,
      "FORBIDDEN",
    );
    expect((await get()).body.targets_version).toBe(0);
  });

  it("every write refreshes the R2 backup; reads fall back to it when D1 fails", async () => {
    await put(example({ t: null, g: null }));
    const obj = await env.FILES.get("backups/config/budget/default/2024/targets.json");
    expect(((await obj!.json()) as { version: number }).version).toBe(1);
    const res = await call(CONFIG, { env: { DB: brokenDb }, now: NOW });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      spending_ceiling: 48000,
      targets_version: 1,
      groups_version: 1,
      allocated_total: 31200,
    });
    expect(res.body.groups).toEqual([{ name: "Essentials", categories: ["groceries", "rent"] }]);
  });

  it("stores money in cents (marked); a decimal backup from before the change reads the same", async () => {
    const created = await put(
      example(
        { t: null, g: null },
        {
          spending_ceiling: 48000.5,
          categories: { rent: { target: 1000, input_mode: "yearly", category_type: "fixed" } },
          groups: [],
        },
      ),
    );
    expect(created.status).toBe(200);
    const row = await env.DB.prepare("SELECT data FROM budget_config WHERE kind = 'targets'").first<string>(
      "data",
    );
    expect(JSON.parse(row!)).toEqual({
      money: "cents",
      spending_ceiling: 4_800_050,
      categories: {
        rent: { target: 100_000, input_mode: "yearly", monthly_amount: 8333, category_type: "fixed" },
      },
    });
    // A backup written before money moved to cents: decimal, no marker.
    await env.FILES.put(
      "backups/config/budget/default/2024/targets.json",
      JSON.stringify({
        version: 1,
        data: {
          spending_ceiling: 48000.5,
          categories: {
            rent: { target: 1000, input_mode: "yearly", monthly_amount: 83.33, category_type: "fixed" },
          },
        },
      }),
    );
    const fromBackup = await call(CONFIG, { env: { DB: brokenDb }, now: NOW });
    expect(fromBackup.status).toBe(200);
    expect(fromBackup.body).toEqual(created.body);
    expect(fromBackup.body).toMatchObject({
      spending_ceiling: 48000.5,
      allocated_total: 1000,
      unallocated: 47000.5,
    });
    expect(fromBackup.body.categories.rent.monthly_amount).toBe(83.33);
  });
});
