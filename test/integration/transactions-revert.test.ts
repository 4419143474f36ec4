import { env } from "cloudflare:test";
import { getDb } from "../../src/db";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { insertEntry } from "../../src/domains/activity/queries";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { clearTransactions, seedTx } from "../helpers/seed";

const tx = (id: string) => `/api/v1/transactions/${id}`;
const entryFor = async (operation: string) => {
  const res = await call(`/api/v1/activity?operation=${operation}&limit=1`);
  const entry = res.body.entries[0];
  if (!entry) throw new Error(`no ledger entry for ${operation}: ${res.text}`);
  return entry;
};
const revert = (id: string, force = false) =>
  call(`/api/v1/activity/${id}/revert${force ? "?force=true" : ""}`, { method: "POST" });
const detail = async (id: string) => (await call(`${tx(id)}/detail`)).body.transaction;

describe("ledger images for transaction edits", () => {
  let id: string;
  beforeEach(async () => {
    await clearTransactions();
    id = await seedTx({
      DateFileName: "2024.10.03_09.00_a.eml",
      Company: "Blue Bottle",
      Category: "coffee & cafes",
      Amount: 10,
    });
  });

  it("patch: revert restores the category and audit", async () => {
    await call(tx(id), { method: "PATCH", body: { category: "groceries" } });
    const entry = await entryFor("patchTransaction");
    expect(entry).toMatchObject({ reversible: true, resource_id: id, method: "PATCH" });
    expect(entry.before.Category).toBe("coffee & cafes");
    expect(entry.after.Category).toBe("groceries");
    // Stored as the images' JSON text (JSON mode through the ledger's insert), not a JSON string.
    const raw = await env.DB.prepare("SELECT before_json, after_json FROM activity_log WHERE id = ?")
      .bind(entry.id)
      .first<{ before_json: string; after_json: string }>();
    expect(JSON.parse(raw!.before_json)).toEqual(entry.before);
    expect(JSON.parse(raw!.after_json)).toEqual(entry.after);
    const undo = countingD1(env.DB);
    const undone = await call(`/api/v1/activity/${entry.id}/revert`, {
      method: "POST",
      env: { DB: undo.db },
    });
    expect(undone.status, undone.text).toBe(200);
    expectEntryInBatch(undo, "transactions");
    const row = await detail(id);
    expect(row.category).toBe("coffee & cafes");
    expect(row.category_audit.source).toBe("override");
    expectEnvelope(await revert(entry.id), 409, "CONFLICT");
  });

  it("comment: revert restores the old note", async () => {
    await call(`${tx(id)}/comment`, { method: "PUT", body: { comment: "first" } });
    await call(`${tx(id)}/comment`, { method: "PUT", body: { comment: "second" } });
    const entry = await entryFor("setTransactionComment");
    await revert(entry.id);
    expect((await detail(id)).comment).toBe("first");
  });

  it("fields: stale guard refuses when the row changed since, force overrides", async () => {
    await call(`${tx(id)}/fields`, { method: "PUT", body: { amount: 12 } });
    const entry = await entryFor("updateTransactionFields");
    await call(`${tx(id)}/comment`, { method: "PUT", body: { comment: "changed after" } });
    const stale = expectEnvelope(await revert(entry.id), 409, "stale_revert");
    expect(stale.details.changed_fields).toEqual(["Comment"]);
    expect((await detail(id)).amount).toBe(12);
    // force: the claim rides in the restore's batch.
    const forced = countingD1(env.DB);
    const res = await call(`/api/v1/activity/${entry.id}/revert?force=true`, {
      method: "POST",
      env: { DB: forced.db },
    });
    expect(res.status, res.text).toBe(200);
    const claim = forced.trips.filter((t) => t.sql.some((q) => /^update "activity_log"/i.test(q)));
    expect(claim).toHaveLength(1);
    expect(claim[0]!.sql.some((q) => /^update "transactions"/i.test(q))).toBe(true);
    expectEntryInBatch(forced, "transactions");
    const row = await detail(id);
    expect(row.amount).toBe(10);
    expect(row.comment).toBeNull();
  });

  it("an audit rewritten as JSON5 (SQLite's json() reads it, the column's reader does not) makes the revert stale", async () => {
    await call(tx(id), { method: "PATCH", body: { category: "groceries" } });
    const entry = await entryFor("patchTransaction");
    const where = "WHERE DateFileName = '2024.10.03_09.00_a.eml'";
    await env.DB.prepare(
      `UPDATE transactions SET CategoryAudit = replace(CategoryAudit, '"source"', 'source') ${where}`,
    ).run();
    const stale = expectEnvelope(await revert(entry.id), 409, "stale_revert");
    expect(stale.details.changed_fields).toContain("CategoryAudit");
    const kept = await env.DB.prepare(`SELECT Category FROM transactions ${where}`).first();
    expect(kept).toEqual({ Category: "groceries" });
  });

  it("a revert claimed by another between its read and its batch: 409, nothing restored", async () => {
    await call(`${tx(id)}/comment`, { method: "PUT", body: { comment: "mine" } });
    const entry = await entryFor("setTransactionComment");
    // A D1 where another revert stamps the entry just before the restore batch carrying the claim runs.
    for (const force of [false, true]) {
      await env.DB.prepare("UPDATE activity_log SET reverted_at = NULL, reverted_by = NULL WHERE id = ?")
        .bind(entry.id)
        .run();
      let counter: ReturnType<typeof countingD1> | null = null;
      const racing = {
        prepare: (q: string) => env.DB.prepare(q),
        batch: async (stmts: D1PreparedStatement[]) => {
          if (counter!.trips.at(-1)!.sql.some((q) => /^update "activity_log" set "reverted_at"/i.test(q)))
            await env.DB.prepare(
              "UPDATE activity_log SET reverted_at = ?, reverted_by = 'act_other' WHERE id = ?",
            )
              .bind("2030-01-01T00:00:00.000Z", entry.id)
              .run();
          return env.DB.batch(stmts);
        },
      } as unknown as D1Database;
      counter = countingD1(racing);
      const res = await call(`/api/v1/activity/${entry.id}/revert${force ? "?force=true" : ""}`, {
        method: "POST",
        env: { DB: counter.db },
      });
      expectEnvelope(res, 409, "CONFLICT");
      expect((await detail(id)).comment).toBe("mine");
      const row = await env.DB.prepare("SELECT reverted_by FROM activity_log WHERE id = ?")
        .bind(entry.id)
        .first();
      expect(row!.reverted_by).toBe("act_other");
    }
    const mine = await env.DB.prepare("SELECT COUNT(*) AS n FROM activity_log WHERE summary LIKE ?")
      .bind(`revert of ${entry.id}%`)
      .first<{ n: number }>();
    expect(mine!.n).toBe(0);
  });

  it("bulk: revert restores every row", async () => {
    const other = await seedTx({
      DateFileName: "2024.10.04_09.00_b.eml",
      Company: "Shell",
      Category: "gasoline",
    });
    const counter = countingD1(env.DB);
    await call("/api/v1/transactions/bulk", {
      method: "PATCH",
      env: { DB: counter.db },
      body: {
        updates: [
          { forwarded_to: "me@example.com", date_file_name: "2024.10.03_09.00_a.eml", category: "travel" },
          { forwarded_to: "me@example.com", date_file_name: "2024.10.04_09.00_b.eml", category: "travel" },
        ],
      },
    });
    expect((await detail(other)).category).toBe("travel");
    expectEntryInBatch(counter, "transactions");
    const entry = await entryFor("bulkUpdateTransactionCategory");
    expect(entry.reversible).toBe(true);
    const undo = countingD1(env.DB);
    const undone = await call(`/api/v1/activity/${entry.id}/revert`, {
      method: "POST",
      env: { DB: undo.db },
    });
    expect(undone.status, undone.text).toBe(200);
    expectEntryInBatch(undo, "transactions");
    expect((await detail(id)).category).toBe("coffee & cafes");
    expect((await detail(other)).category).toBe("gasoline");
  });

  it("bulk: a row changed since makes the revert stale; force restores every row", async () => {
    const other = await seedTx({
      DateFileName: "2024.10.04_09.00_b.eml",
      Company: "Shell",
      Category: "gasoline",
    });
    const updates = ["2024.10.03_09.00_a.eml", "2024.10.04_09.00_b.eml"].map((date_file_name) => ({
      forwarded_to: "me@example.com",
      date_file_name,
      category: "travel",
    }));
    await call("/api/v1/transactions/bulk", { method: "PATCH", body: { updates } });
    const entry = await entryFor("bulkUpdateTransactionCategory");
    await call(`${tx(other)}/comment`, { method: "PUT", body: { comment: "since" } });
    const stale = expectEnvelope(await revert(entry.id), 409, "stale_revert");
    expect(stale.details.changed_fields).toEqual(["rows"]);
    expect((await detail(id)).category).toBe("travel");
    const res = await call(`/api/v1/activity/${entry.id}/revert?force=true`, { method: "POST" });
    expect(res.status, res.text).toBe(200);
    expect((await detail(id)).category).toBe("coffee & cafes");
    expect((await detail(other)).category).toBe("gasoline");
  });

  it("new images keep the decimal Amount the API speaks", async () => {
    await call(`${tx(id)}/fields`, { method: "PUT", body: { amount: 12.34 } });
    const entry = await entryFor("updateTransactionFields");
    expect(entry.before.Amount).toBe(10);
    expect(entry.after.Amount).toBe(12.34);
  });

  it("an entry written before amounts moved to cents (decimal images) still reverts exactly", async () => {
    const image = {
      Category: "coffee & cafes",
      CategoryAudit: { source: "override", confidence: 1 },
      Comment: null,
      Company: "Blue Bottle",
      TransactionType: "purchase",
      Ignored: 0,
      DeletedAt: null,
    };
    // The row as it stands now (10.00), and an old entry that changed 0.29 into 10 (REAL days).
    await insertEntry(getDb(env.DB), {
      id: "act_before_cents",
      ts: "2024-10-05T00:00:00.000Z",
      principal_kind: "tofu",
      principal_id: null,
      principal_label: null,
      operation_id: "updateTransactionFields",
      method: "PUT",
      path: `/api/v1/transactions/${id}/fields`,
      resource_kind: "transaction",
      resource_id: id,
      summary: "fields of Blue Bottle",
      before_json: { ...image, Amount: 0.29 },
      after_json: { ...image, Amount: 10 },
      reversible: 1,
      reverted_at: null,
      reverted_by: null,
    });
    const res = await revert("act_before_cents");
    expect(res.status, res.text).toBe(200);
    expect((await detail(id)).amount).toBe(0.29);
    const stored = await env.DB.prepare(
      "SELECT Amount FROM transactions WHERE Company = 'Blue Bottle'",
    ).first();
    expect(stored?.Amount).toBe(29);
  });

  it("state changes are journaled envelope-only", async () => {
    await call(`${tx(id)}/ignore`, { method: "POST", body: { ignored: true } });
    const entry = await entryFor("setTransactionIgnored");
    expect(entry).toMatchObject({ reversible: false, before: null, after: null, resource_id: id });
    expectEnvelope(await revert(entry.id), 409, "CONFLICT");
  });

  it("search-by-filter is a read and is not journaled", async () => {
    await call("/api/v1/transactions/search-by-filter", {
      method: "POST",
      body: { from_month: "2024-10", to_month: "2024-10" },
    });
    const res = await call("/api/v1/activity?operation=searchTransactionsByFilter");
    expect(res.body.entries).toEqual([]);
  });
});
