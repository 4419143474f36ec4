import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  listCategoryIcons,
  listCategoryNames,
  listManagedCategories,
} from "../../src/domains/categories/service";
import { countingD1 } from "../../bench/lib/d1-count";
import { brokenDb } from "../helpers/broken";
import { seedToken } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";

const enc = encodeURIComponent;
const CATS = "/api/v1/categories";

async function reset() {
  await env.DB.batch(
    ["categories", "overrides", "transactions", "config_versions", "budget_config", "api_tokens"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
  await env.FILES.delete(["backups/config/categories.json", "backups/config/overrides.json"]);
}

let seq = 0;
async function seedTx(category: string, opts: { company?: string; deleted?: boolean } = {}) {
  seq += 1;
  await env.DB.prepare(
    `INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, Company, Category, Amount, DeletedAt)
     VALUES ('me@example.com', ?, ?, ?, ?, 10, ?)`,
  )
    .bind(
      `2025.01.${String((seq % 28) + 1).padStart(2, "0")}_10.00_t${seq}.eml`,
      `h${seq}`,
      opts.company ?? "SHOP",
      category,
      opts.deleted ? "2025-02-01T00:00:00Z" : null,
    )
    .run();
}

const txCategories = async () =>
  (
    await env.DB.prepare("SELECT Category FROM transactions ORDER BY rowid").all<{ Category: string }>()
  ).results.map((r) => r.Category);
const managed = async () => (await call(`${CATS}/managed`)).body;
const add = (body: unknown, headers?: Record<string, string>) =>
  call(CATS, { method: "POST", body, headers });

beforeEach(reset);

describe("GET /api/v1/categories", () => {
  it("serves the 39 defaults before first use", async () => {
    const res = await call(CATS);
    expect(res.status).toBe(200);
    expect(res.body.categories).toHaveLength(39);
    expect(res.body.categories[0]).toBe("Alcohol");
    expect(res.body.categories).toContain("Miscellaneous");
    expect(res.body.categories.at(-1)).toBe("Utilities");
  });

  it("serves the stored list after the first write (defaults materialized, then the addition)", async () => {
    expect((await add({ name: "Books" })).status).toBe(200);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM categories").first<number>("n")).toBe(40);
    const res = await call(CATS);
    expect(res.body.categories).toHaveLength(40);
    expect(res.body.categories.at(-1)).toBe("Books");
  });

  // Service level: with D1 down the auth middleware itself cannot answer (it reads auth_settings).
  it("falls back to the R2 backup when D1 fails, and to the defaults without one", async () => {
    const down = { env: { ...env, DB: brokenDb } };
    expect(await listCategoryNames(down)).toHaveLength(39);
    await add({ name: "Books", group: "Lifestyle" });
    const saved = (await (await env.FILES.get("backups/config/categories.json"))!.json()) as any;
    expect(saved.items).toHaveLength(40);
    expect(saved.version).toBe(1);
    expect(await listCategoryNames(down)).toContain("Books");
    const m = await listManagedCategories(down);
    expect(m.version).toBe(1);
    expect(m.categories).toContainEqual({ name: "Books", group: "Lifestyle" });
    expect((await listCategoryIcons(down)).version).toBe(1);
  });

  it("a write while D1 is down fails with the 500 envelope and leaks nothing", async () => {
    const down = await call(CATS, { method: "POST", body: { name: "Art" }, env: { DB: brokenDb } });
    const e = expectEnvelope(down, 500, "INTERNAL_ERROR");
    expect(JSON.stringify(e)).not.toContain("secret");
  });
});

describe("GET /api/v1/categories/managed", () => {
  it("lists categories with groups, count, version 0 and the distinct groups", async () => {
    const body = await managed();
    expect(body.count).toBe(39);
    expect(body.version).toBe(0);
    expect(body.categories).toContainEqual({ name: "Groceries", group: "Food & Drink" });
    expect(body.categories.every((c: { group: string | null }) => c.group !== null)).toBe(true);
    expect(body.groups).toEqual([...body.groups].sort((a: string, b: string) => a.localeCompare(b)));
    expect(body.groups).toContain("Transportation");
  });

  it("every write bumps the version", async () => {
    await add({ name: "Books" });
    await call(`${CATS}/Books/group`, { method: "PUT", body: { group: "Lifestyle" } });
    expect((await managed()).version).toBe(2);
  });
});

describe("POST /api/v1/categories", () => {
  it("adds with a group and returns the managed list", async () => {
    const res = await add({ name: "  Books ", group: "Reading" });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(40);
    expect(res.body.version).toBe(1);
    expect(res.body.categories.at(-1)).toEqual({ name: "Books", group: "Reading" });
    expect(res.body.groups).toContain("Reading");
  });

  it("is unique case-insensitively: 409 CONFLICT", async () => {
    const e = expectEnvelope(await add({ name: "GROCERIES" }), 409, "CONFLICT");
    expect(e.error).toContain("Groceries");
    await add({ name: "Books" });
    expectEnvelope(await add({ name: "books" }), 409, "CONFLICT");
  });

  it("honours If-Match: the current version passes, a stale one is 409, garbage is 422", async () => {
    expect((await add({ name: "Books" }, { "If-Match": "0" })).status).toBe(200);
    const stale = expectEnvelope(await add({ name: "Art" }, { "If-Match": "0" }), 409, "CONFLICT");
    expect(stale.details).toMatchObject({ expected_version: 0, current_version: 1 });
    expect((await add({ name: "Art" }, { "If-Match": '"1"' })).status).toBe(200);
    const bad = expectEnvelope(await add({ name: "Film" }, { "If-Match": "abc" }), 422, "VALIDATION_ERROR");
    // Refused by the route's request schema, naming the header.
    expect(JSON.stringify(bad.details)).toContain("if-match");
    // `*` is no lock at all.
    expect((await add({ name: "Film" }, { "If-Match": "*" })).status).toBe(200);
  });

  const invalid: [string, unknown, string][] = [
    ["missing name", {}, "name"],
    ["empty name", { name: "   " }, "name"],
    ["too long", { name: "x".repeat(61) }, "name"],
    ["number", { name: 5 }, "name"],
    ["control character", { name: "a\u0007b" }, "name"],
    ["reserved path word", { name: "Icons" }, "name"],
    ["empty group", { name: "Books", group: "" }, "group"],
    ["unknown field", { name: "Books", colour: "red" }, ""],
  ];
  it.each(invalid)("rejects %s with 422 and details.errors", async (_n, body, field) => {
    const e = expectEnvelope(await add(body), 422, "VALIDATION_ERROR");
    expect(e.details.errors.length).toBeGreaterThan(0);
    if (field) expect(e.details.errors.map((x: { loc: string[] }) => x.loc.at(-1))).toContain(field);
  });

  it("rejects a missing or malformed body with 422", async () => {
    expectEnvelope(await call(CATS, { method: "POST" }), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await call(CATS, { method: "POST", rawBody: "{nope", headers: { "content-type": "application/json" } }),
      422,
      "VALIDATION_ERROR",
    );
  });
});

describe("PUT /api/v1/categories/{old_name}", () => {
  it("renames, moving transactions (keeping their case style) and overrides", async () => {
    await seedTx("groceries");
    await seedTx("Groceries");
    await seedTx("gasoline");
    await env.DB.prepare(
      "INSERT INTO overrides (company, category, created_at, updated_at) VALUES ('SAVE ON', 'groceries', 'x', 'x')",
    ).run();
    const res = await call(`${CATS}/groceries`, { method: "PUT", body: { new_name: "Food Shopping" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      old_name: "Groceries",
      new_name: "Food Shopping",
      transactions_updated: 2,
      overrides_updated: 1,
      budget_groups_updated: false,
    });
    expect(await txCategories()).toEqual(["food shopping", "Food Shopping", "gasoline"]);
    expect((await call("/api/v1/overrides")).body.overrides).toEqual([
      { company: "SAVE ON", category: "Food Shopping" },
    ]);
    const list = (await call(CATS)).body.categories;
    expect(list).toContain("Food Shopping");
    expect(list).not.toContain("Groceries");
    expect((await managed()).categories).toContainEqual({ name: "Food Shopping", group: "Food & Drink" });
  });

  it("handles names with a slash (URL-encoded) and a change of case only", async () => {
    await seedTx("restaurant/dining");
    const res = await call(`${CATS}/${enc("Restaurant/Dining")}`, {
      method: "PUT",
      body: { new_name: "RESTAURANT/DINING" },
    });
    expect(res.status).toBe(200);
    expect(res.body.transactions_updated).toBe(1);
    expect((await call(CATS)).body.categories).toContain("RESTAURANT/DINING");
  });

  it("refuses to rename Miscellaneous (409) and to take another category's name (409)", async () => {
    const e = expectEnvelope(
      await call(`${CATS}/miscellaneous`, { method: "PUT", body: { new_name: "Other" } }),
      409,
      "CONFLICT",
    );
    expect(e.error).toMatch(/Miscellaneous.*cannot be renamed/);
    expectEnvelope(
      await call(`${CATS}/Groceries`, { method: "PUT", body: { new_name: "gasoline" } }),
      409,
      "CONFLICT",
    );
  });

  it("404 for an unknown category, 422 for a bad body", async () => {
    expectEnvelope(
      await call(`${CATS}/Nope`, { method: "PUT", body: { new_name: "Yes" } }),
      404,
      "NOT_FOUND",
    );
    const e = expectEnvelope(
      await call(`${CATS}/Groceries`, { method: "PUT", body: { new_name: "" } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(e.details.errors[0].loc).toContain("new_name");
    expectEnvelope(
      await call(`${CATS}/Groceries`, { method: "PUT", body: { name: "X" } }),
      422,
      "VALIDATION_ERROR",
    );
  });
});

describe("DELETE /api/v1/categories/{name}", () => {
  it("deletes and reassigns transactions and overrides to Miscellaneous by default", async () => {
    await seedTx("gifts");
    await seedTx("Gifts", { deleted: true });
    await seedTx("groceries");
    await env.DB.prepare(
      "INSERT INTO overrides (company, category, created_at, updated_at) VALUES ('FLOWERS', 'Gifts', 'x', 'x')",
    ).run();
    const res = await call(`${CATS}/GIFTS`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      deleted_name: "Gifts",
      transactions_reassigned: 2,
      reassigned_to: "Miscellaneous",
    });
    expect(await txCategories()).toEqual(["miscellaneous", "Miscellaneous", "groceries"]);
    expect((await call("/api/v1/overrides")).body.overrides[0].category).toBe("Miscellaneous");
    expect((await call(CATS)).body.categories).not.toContain("Gifts");
    expect((await call(CATS)).body.categories).toHaveLength(38);
  });

  it("reassigns to a given target; reassigned_to is null when nothing moved", async () => {
    await seedTx("hobbies");
    const res = await call(`${CATS}/Hobbies?reassign_to=${enc("entertainment")}`, { method: "DELETE" });
    expect(res.body).toEqual({
      deleted_name: "Hobbies",
      transactions_reassigned: 1,
      reassigned_to: "Entertainment",
    });
    expect(await txCategories()).toEqual(["entertainment"]);
    const none = await call(`${CATS}/Pets`, { method: "DELETE" });
    expect(none.body).toEqual({ deleted_name: "Pets", transactions_reassigned: 0, reassigned_to: null });
  });

  it("refuses Miscellaneous (409), unknown names (404) and bad targets (422)", async () => {
    const e = expectEnvelope(await call(`${CATS}/Miscellaneous`, { method: "DELETE" }), 409, "CONFLICT");
    expect(e.error).toMatch(/cannot be deleted/);
    expectEnvelope(await call(`${CATS}/Nope`, { method: "DELETE" }), 404, "NOT_FOUND");
    const bad = expectEnvelope(
      await call(`${CATS}/Pets?reassign_to=Nope`, { method: "DELETE" }),
      422,
      "VALIDATION_ERROR",
    );
    expect(bad.details.errors[0].loc).toEqual(["query", "reassign_to"]);
    expectEnvelope(
      await call(`${CATS}/Pets?reassign_to=pets`, { method: "DELETE" }),
      422,
      "VALIDATION_ERROR",
    );
    expect((await call(CATS)).body.categories).toContain("Pets");
  });
});

describe("GET /api/v1/categories/{name}/usage", () => {
  it("counts transactions and overrides, reports the group and budget membership", async () => {
    await seedTx("coffee & cafes");
    await seedTx("Coffee & Cafes");
    await env.DB.prepare(
      "INSERT INTO overrides (company, category, created_at, updated_at) VALUES ('BEAN', 'Coffee & Cafes', 'x', 'x')",
    ).run();
    await env.DB.prepare(
      "INSERT INTO budget_config (user_id, year, kind, data, version, updated_at) VALUES ('default', 2025, 'targets', ?, 1, 'x')",
    )
      .bind(JSON.stringify({ categories: { "coffee & cafes": { target: 600 } } }))
      .run();
    const res = await call(`${CATS}/${enc("coffee & cafes")}/usage`, { now: "2025-06-01T00:00:00Z" });
    expect(res.body).toEqual({
      category: "Coffee & Cafes",
      transaction_count: 2,
      override_count: 1,
      in_budget: true,
      in_group: "Food & Drink",
    });
    // Another spelling counts under the list's: the same answer.
    const again = await call(`${CATS}/${enc("Coffee & Cafes")}/usage`, { now: "2025-06-01T00:00:00Z" });
    expect(again.body).toEqual(res.body);
    const other = await call(`${CATS}/Pets/usage`, { now: "2025-06-01T00:00:00Z" });
    expect(other.body).toMatchObject({
      transaction_count: 0,
      override_count: 0,
      in_budget: false,
      in_group: "Family",
    });
  });

  it("404 for an unknown category", async () => {
    expectEnvelope(await call(`${CATS}/Nope/usage`), 404, "NOT_FOUND");
  });
});

describe("PUT /api/v1/categories/{name}/group", () => {
  it("moves a category between groups and out of every group", async () => {
    const res = await call(`${CATS}/pets/group`, { method: "PUT", body: { group: "Animals" } });
    expect(res.body).toEqual({ category: "Pets", old_group: "Family", new_group: "Animals" });
    const cleared = await call(`${CATS}/Pets/group`, { method: "PUT", body: { group: null } });
    expect(cleared.body).toEqual({ category: "Pets", old_group: "Animals", new_group: null });
    expect((await managed()).categories).toContainEqual({ name: "Pets", group: null });
  });

  it("404 for an unknown category; 422 when group is missing or empty", async () => {
    expectEnvelope(
      await call(`${CATS}/Nope/group`, { method: "PUT", body: { group: "X" } }),
      404,
      "NOT_FOUND",
    );
    expectEnvelope(await call(`${CATS}/Pets/group`, { method: "PUT", body: {} }), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await call(`${CATS}/Pets/group`, { method: "PUT", body: { group: " " } }),
      422,
      "VALIDATION_ERROR",
    );
  });
});

describe("category icons", () => {
  it("lists, sets (query name, any case) and clears icons", async () => {
    expect((await call(`${CATS}/icons`)).body).toEqual({ icons: {}, version: 0 });
    const set = await call(`${CATS}/icons?name=${enc("restaurant/dining")}`, {
      method: "PUT",
      body: { icon: "🍽️" },
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ icons: { "Restaurant/Dining": "🍽️" }, version: 1 });
    await call(`${CATS}/icons?name=Pets`, { method: "PUT", body: { icon: "paw" } });
    const cleared = await call(`${CATS}/icons?name=${enc("Restaurant/Dining")}`, { method: "DELETE" });
    expect(cleared.body).toEqual({ icons: { Pets: "paw" }, version: 3 });
    expect((await call(`${CATS}/icons`)).body.icons).toEqual({ Pets: "paw" });
  });

  it("an icon follows its category through a rename", async () => {
    await call(`${CATS}/icons?name=Pets`, { method: "PUT", body: { icon: "paw" } });
    await call(`${CATS}/Pets`, { method: "PUT", body: { new_name: "Animals" } });
    expect((await call(`${CATS}/icons`)).body.icons).toEqual({ Animals: "paw" });
  });

  it("404 for an unknown category; 422 without a name or with a bad icon", async () => {
    expectEnvelope(
      await call(`${CATS}/icons?name=Nope`, { method: "PUT", body: { icon: "x" } }),
      404,
      "NOT_FOUND",
    );
    expectEnvelope(await call(`${CATS}/icons?name=Nope`, { method: "DELETE" }), 404, "NOT_FOUND");
    const e = expectEnvelope(
      await call(`${CATS}/icons`, { method: "PUT", body: { icon: "x" } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(e.details.errors[0].loc).toContain("name");
    expectEnvelope(
      await call(`${CATS}/icons?name=Pets`, { method: "PUT", body: { icon: "" } }),
      422,
      "VALIDATION_ERROR",
    );
    expectEnvelope(
      await call(`${CATS}/icons?name=Pets`, { method: "PUT", body: { icon: "x".repeat(65) } }),
      422,
      "VALIDATION_ERROR",
    );
  });
});

describe("token scopes", () => {
  it("a read token may list but not write (403 FORBIDDEN)", async () => {
    const { token } = await seedToken("read", "r");
    const headers = { Authorization: `Bearer ${token}` };
    expect((await call(CATS, { headers })).status).toBe(200);
    expect((await call(`${CATS}/managed`, { headers })).status).toBe(200);
    expect((await call(`${CATS}/Pets/usage`, { headers })).status).toBe(200);
    expectEnvelope(await call(CATS, { method: "POST", body: { name: "Books" }, headers }), 403, "FORBIDDEN");
    expectEnvelope(await call(`${CATS}/Pets`, { method: "DELETE", headers }), 403, "FORBIDDEN");
    expectEnvelope(
      await call(`${CATS}/icons?name=Pets`, { method: "PUT", body: { icon: "x" }, headers }),
      403,
      "FORBIDDEN",
    );
    expect((await call(CATS)).body.categories).not.toContain("Books");
  });
});

describe("category rename and delete carry the budget along", () => {
  it("renames the key in every year's targets and groups, and drops it on delete", async () => {
    await env.DB.batch([
      env.DB.prepare("DELETE FROM budget_config"),
      env.DB.prepare("INSERT INTO budget_config VALUES ('default', 2024, 'targets', ?, 3, 'x')").bind(
        JSON.stringify({
          spending_ceiling: 1000,
          categories: {
            hobbies: { target: 120, input_mode: "yearly", monthly_amount: 10, category_type: "variable" },
          },
        }),
      ),
      env.DB.prepare("INSERT INTO budget_config VALUES ('default', 2024, 'groups', ?, 2, 'x')").bind(
        JSON.stringify({ groups: [{ name: "Fun", categories: ["hobbies", "travel"] }] }),
      ),
    ]);
    const counter = countingD1(env.DB);
    const renamed = await call("/api/v1/categories/Hobbies", {
      method: "PUT",
      body: { new_name: "Crafts" },
      env: { DB: counter.db },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.budget_groups_updated).toBe(true);
    expectEntryInBatch(counter, "categories");
    expect(counter.trips.at(-1)!.sql.some((q) => q.includes('"activity_log"'))).toBe(true);
    const config = await call("/api/v1/budget/config?year=2024");
    expect(Object.keys(config.body.categories)).toEqual(["crafts"]);
    expect(config.body.categories.crafts.target).toBe(120);
    expect(config.body.groups).toEqual([{ name: "Fun", categories: ["crafts", "travel"] }]);
    expect(config.body.targets_version).toBe(4);
    const deleted = await call("/api/v1/categories/Crafts", { method: "DELETE" });
    expect(deleted.status, deleted.text).toBe(200);
    const after = await call("/api/v1/budget/config?year=2024");
    expect(after.body.categories).toEqual({});
    expect(after.body.groups).toEqual([{ name: "Fun", categories: ["travel"] }]);
  });

  it("a rename touches only the key of a cents-marked targets document, never its amounts", async () => {
    const doc = {
      money: "cents",
      spending_ceiling: 100_000,
      categories: {
        hobbies: { target: 12_345, input_mode: "yearly", monthly_amount: 1029, category_type: "variable" },
      },
    };
    await env.DB.batch([
      env.DB.prepare("DELETE FROM budget_config"),
      env.DB.prepare("INSERT INTO budget_config VALUES ('default', 2024, 'targets', ?, 1, 'x')").bind(
        JSON.stringify(doc),
      ),
    ]);
    const renamed = await call("/api/v1/categories/Hobbies", { method: "PUT", body: { new_name: "Crafts" } });
    expect(renamed.status).toBe(200);
    const stored = JSON.parse(
      (await env.DB.prepare("SELECT data FROM budget_config WHERE kind = 'targets'").first<string>("data"))!,
    );
    expect(stored).toEqual({ ...doc, categories: { crafts: doc.categories.hobbies } });
    const config = await call("/api/v1/budget/config?year=2024");
    expect(config.body.spending_ceiling).toBe(1000);
    expect(config.body.categories.crafts.target).toBe(123.45);
  });
});

describe("each category write journals itself, in its list write's batch", () => {
  it("add, group, icon set and clear, rename, delete: one entry each, with its images", async () => {
    await env.DB.prepare("DELETE FROM activity_log").run();
    const counter = countingD1(env.DB);
    // Only a change of look (group, icon) is reversible.
    const writes: [string, string, unknown, string, boolean][] = [
      ["POST", CATS, { name: "Pottery", group: "Hobbies" }, "Added category 'Pottery'", false],
      [
        "PUT",
        `${CATS}/Pottery/group`,
        { group: "Leisure" },
        "Category 'Pottery' group: Hobbies → Leisure",
        true,
      ],
      ["PUT", `${CATS}/icons?name=pottery`, { icon: "🏺" }, "Set the icon of 'Pottery'", true],
      ["DELETE", `${CATS}/icons?name=Pottery`, undefined, "Cleared the icon of 'Pottery'", true],
      ["PUT", `${CATS}/Pottery`, { new_name: "Ceramics" }, "Renamed category 'Pottery' to 'Ceramics'", false],
      [
        "DELETE",
        `${CATS}/Ceramics`,
        undefined,
        "Deleted category 'Ceramics' (its rows move to 'Miscellaneous')",
        false,
      ],
    ];
    for (const [method, path, body, summary, reversible] of writes) {
      counter.reset();
      const res = await call(path, { method, body, env: { DB: counter.db } });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(200);
      expectEntryInBatch(counter, "categories");
      const [entry] = (await call("/api/v1/activity?limit=1")).body.entries;
      expect(entry).toMatchObject({ summary, reversible });
    }
    const [deleted] = (await call("/api/v1/activity?limit=1")).body.entries;
    expect(deleted).toMatchObject({
      resource_id: "Ceramics",
      before: { name: "Ceramics", group: "Leisure", icon: null },
      after: null,
    });
  });
});

describe("reverting a category's look", () => {
  const revert = (id: string, db: D1Database = env.DB, force = false) =>
    call(`/api/v1/activity/${id}/revert${force ? "?force=true" : ""}`, { method: "POST", env: { DB: db } });
  const look = async (name: string) =>
    ((await call(`${CATS}/managed`)).body.categories as any[]).find((c) => c.name === name);

  it("puts the group and icon back; a look changed since is stale; other entries are not reversible", async () => {
    const added = await call(CATS, { method: "POST", body: { name: "Pottery", group: "Hobbies" } });
    const regroup = await call(`${CATS}/Pottery/group`, { method: "PUT", body: { group: "Leisure" } });
    const icon = await call(`${CATS}/icons?name=Pottery`, { method: "PUT", body: { icon: "🏺" } });
    // The icon entry is the latest: it reverts first.
    const counter = countingD1(env.DB);
    const undone = await revert(icon.headers.get("x-activity-id")!, counter.db);
    expect(undone.status, undone.text).toBe(200);
    expectEntryInBatch(counter, "categories");
    expect((await call(`${CATS}/icons`)).body.icons).toEqual({});
    expect((await look("Pottery")).group).toBe("Leisure");
    // Then the group change; the add is not reversible.
    expect((await revert(regroup.headers.get("x-activity-id")!)).status).toBe(200);
    expect((await look("Pottery")).group).toBe("Hobbies");
    const addEntry = (await call("/api/v1/activity?operation=addCategory&limit=1")).body.entries[0];
    expectEnvelope(await revert(addEntry.id), 409, "CONFLICT");
    expect(added.status).toBe(200);

    const again = await call(`${CATS}/Pottery/group`, { method: "PUT", body: { group: "Crafts" } });
    await call(`${CATS}/icons?name=Pottery`, { method: "PUT", body: { icon: "🎨" } });
    const stale = expectEnvelope(await revert(again.headers.get("x-activity-id")!), 409, "stale_revert");
    expect(stale.details.changed_fields).toEqual(["icon"]);
    expect((await look("Pottery")).group).toBe("Crafts");
    // force: the group goes back to Hobbies, and so does the icon (none, as before the group change).
    expect((await revert(again.headers.get("x-activity-id")!, env.DB, true)).status).toBe(200);
    expect((await look("Pottery")).group).toBe("Hobbies");
    expect((await call(`${CATS}/icons`)).body.icons).toEqual({});
  });
});
