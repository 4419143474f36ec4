// Issue 11 item 4: reverts must not resurrect deleted categories, and a category rename is atomic
// against concurrent edits that set the old name.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { resetState } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { clearTransactions, seedTx } from "../helpers/seed";

const entries = async () => (await call("/api/v1/activity")).body.entries as any[];
const revert = (id: string, query = "") => call(`/api/v1/activity/${id}/revert${query}`, { method: "POST" });
const listed = async () => ((await call("/api/v1/categories")).body as any).categories as string[];

/** Transactions whose category is in no stored category row (the stored list is in effect). */
async function orphans(): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT COUNT(*) AS n FROM transactions t WHERE t.Category IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM categories c WHERE c.name = t.Category COLLATE NOCASE)`,
  ).first<{ n: number }>();
  return row!.n;
}

beforeEach(async () => {
  await resetState();
  await clearTransactions();
  await env.DB.batch([env.DB.prepare("DELETE FROM categories"), env.DB.prepare("DELETE FROM overrides")]);
});

describe("reverting an edit whose before names a deleted category", () => {
  it("transaction: 409 CATEGORY_DELETED naming it; force=true recreates it and says so", async () => {
    const tx = await seedTx({ DateFileName: "2030-01-05T10:00:00.000Z", Category: "groceries" });
    expect(
      (await call(`/api/v1/transactions/${tx}`, { method: "PATCH", body: { category: "Travel" } })).status,
    ).toBe(200);
    const [patch] = await entries();
    expect((await call("/api/v1/categories/Groceries", { method: "DELETE" })).status).toBe(200);

    const refused = expectEnvelope(await revert(patch.id), 409, "CATEGORY_DELETED");
    // Today the revert succeeds and files the row under the deleted category.
    expect(refused.details.categories).toEqual(["groceries"]);
    expect((await call(`/api/v1/transactions/${tx}/detail`)).body.transaction.category).toMatch(/travel/i);
    expect((await entries())[0].reverted_at ?? null).toBeNull();

    const forced = await revert(patch.id, "?force=true");
    expect(forced.status, forced.text).toBe(200);
    expect(forced.body.recreated_categories).toEqual(["Groceries"]);
    expect(forced.body.summary).toMatch(/recreated category Groceries/);
    expect((await listed()).map((n) => n.toLowerCase())).toContain("groceries");
    expect(await orphans()).toBe(0);
  });

  it("override: 409 CATEGORY_DELETED; force=true recreates the category", async () => {
    const put = (category: string) =>
      call("/api/v1/overrides/Corner%20Store", { method: "PUT", body: { category } });
    expect((await call("/api/v1/categories", { method: "POST", body: { name: "Bakery" } })).status).toBe(200);
    expect((await put("Bakery")).status).toBe(200);
    expect((await put("Travel")).status).toBe(200);
    const [edit] = await entries();
    expect((await call("/api/v1/categories/Bakery", { method: "DELETE" })).status).toBe(200);
    const overrideNow = async () =>
      ((await call("/api/v1/overrides")).body.overrides as any[]).find((o) => o.company === "Corner Store");

    const refused = expectEnvelope(await revert(edit.id), 409, "CATEGORY_DELETED");
    expect(refused.details.categories).toEqual(["Bakery"]);
    expect((await overrideNow()).category).toBe("Travel");
    const forced = await revert(edit.id, "?force=true");
    expect(forced.status, forced.text).toBe(200);
    expect(forced.body.recreated_categories).toEqual(["Bakery"]);
    expect(await listed()).toContain("Bakery");
    expect((await overrideNow()).category).toBe("Bakery");
  });
});

describe("rename racing edits that set the old name", () => {
  it("12 concurrent PATCHes racing a rename leave no row in a category that no longer exists", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const day = `2030-02-${String(i + 1).padStart(2, "0")}T10:00:00.000Z`;
      ids.push(await seedTx({ DateFileName: day, Category: "travel" }));
    }
    // The rename starts first: each PATCH validates "Groceries" while the rename is still reading,
    // and writes after the rename's batch (today all 12 rows end in the dead category).
    const rename = call("/api/v1/categories/Groceries", { method: "PUT", body: { new_name: "Food" } });
    const patches = ids.map((id) =>
      call(`/api/v1/transactions/${id}`, { method: "PATCH", body: { category: "Groceries" } }),
    );
    const results = await Promise.all([...patches, rename]);
    expect(results.at(-1)!.status, results.at(-1)!.text).toBe(200);
    for (const r of results.slice(0, -1)) expect([200, 409]).toContain(r.status);
    for (const r of results.slice(0, -1).filter((r) => r.status === 409))
      expect(r.body.code).toBe("CATEGORY_DELETED");
    expect(await orphans()).toBe(0);
    const cats = await env.DB.prepare("SELECT DISTINCT lower(Category) AS c FROM transactions").all();
    expect(cats.results.map((r: any) => r.c).sort()).not.toContain("groceries");
  });
});
