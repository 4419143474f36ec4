import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1, tally } from "../../bench/lib/d1-count";
import { encodeTxId } from "../../src/lib/txid";
import { bearer, seedToken } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { clearTransactions, seedTx } from "../helpers/seed";

const ledger = async () =>
  (await env.DB.prepare("SELECT resource_id, summary, operation_id FROM activity_log ORDER BY seq").all())
    .results;

const tx = (id: string) => `/api/v1/transactions/${id}`;

describe("transactions: reads", () => {
  let a: string;
  let b: string;
  beforeEach(async () => {
    await clearTransactions();
    a = await seedTx({ DateFileName: "2024.10.03_09.00_a.eml", Amount: 12.5, Company: "Blue Bottle" });
    b = await seedTx({
      DateFileName: "2024.10.20_18.30_b.eml",
      Amount: 80,
      Company: "Safeway",
      Category: "groceries",
    });
    await seedTx({
      DateFileName: "2024.10.21_08.00_c.eml",
      DeletedAt: "2024-10-22T00:00:00Z",
      Company: "Trashed",
    });
    await seedTx({ DateFileName: "2024.11.01_00.01_d.eml", Company: "Next Month" });
    await seedTx({ DateFileName: "2024.09.30_23.59_e.eml", Company: "Last Month" });
    await env.DB.prepare(
      "INSERT INTO attention_queue VALUES ('me@example.com', '2024.10.20_18.30_b.eml', 'ai_fallback', '2024-10-20T00:00:00Z')",
    ).run();
  });

  it("lists a month newest first, excluding deleted rows and other months", async () => {
    const res = await call("/api/v1/transactions?month=2024-10");
    expect(res.status).toBe(200);
    expect(res.body.month).toBe("2024-10");
    expect(res.body.count).toBe(2);
    expect(res.body.transactions.map((t: { company: string }) => t.company)).toEqual([
      "Safeway",
      "Blue Bottle",
    ]);
    const first = res.body.transactions[0];
    expect(first).toMatchObject({
      tx_id: b,
      amount: 80,
      category: "groceries",
      needs_attention: true,
      ignored: false,
    });
    expect(first.category_audit).toMatchObject({ source: "override", confidence: 1 });
  });

  it("trash, attention and the combined view", async () => {
    const trash = await call("/api/v1/transactions/trash?month=2024-10");
    expect(trash.body.transactions.map((t: { company: string }) => t.company)).toEqual(["Trashed"]);
    const att = await call("/api/v1/transactions/attention?month=2024-10");
    expect(att.body).toMatchObject({ month: "2024-10", count: 1 });
    expect(att.body.transactions[0].tx_id).toBe(b);
    const counter = countingD1(env.DB);
    const all = await call("/api/v1/transactions/all?month=2024-10", { env: { DB: counter.db } });
    expect(all.body.transactions.count).toBe(2);
    expect(all.body.attention.count).toBe(1);
    expect(all.body.trash.count).toBe(1);
    expect(all.body.attention.transactions[0].tx_id).toBe(b);
    // D1 round trips: auth, then the three lists in ONE batch.
    expect(tally(counter.trips).trips).toBeLessThanOrEqual(2);
  });

  it("bulk list of several months", async () => {
    const counter = countingD1(env.DB);
    const res = await call("/api/v1/transactions/bulk?months=2024-10,2024-11", { env: { DB: counter.db } });
    expect(Object.keys(res.body).sort()).toEqual(["2024-10", "2024-11"]);
    expect(res.body["2024-11"].transactions.count).toBe(1);
    expect(res.body["2024-10"]).toMatchObject({
      month: "2024-10",
      transactions: { month: "2024-10", count: 2 },
      attention: { count: 1 },
      trash: { count: 1 },
    });
    // D1 round trips: auth, then every month's three lists in ONE batch (was 1 + 3 per month).
    expect(tally(counter.trips).trips).toBeLessThanOrEqual(2);
    const bad = expectEnvelope(
      await call("/api/v1/transactions/bulk?months=2024-10,nope"),
      422,
      "VALIDATION_ERROR",
    );
    expect(bad.details.errors[0].loc).toEqual(["query", "months"]);
  });

  it("detail carries the source email; tx_id round-trips", async () => {
    const res = await call(`${tx(a)}/detail`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      tx_id: a,
      forwarded_to: "me@example.com",
      date_file_name: "2024.10.03_09.00_a.eml",
      subject: "Alert",
    });
    expect(res.body.transaction.company).toBe("Blue Bottle");
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("a malformed or unknown tx_id is 404, never 500", async () => {
    for (const id of [
      "not-base64!!",
      "AAAA",
      encodeTxId("me@example.com", "2099.01.01_00.00_none.eml"),
      "%00%ff",
    ]) {
      expectEnvelope(await call(`${tx(id)}/detail`), 404, "NOT_FOUND");
    }
    expectEnvelope(await call(tx("AAAA"), { method: "PATCH", body: { reviewed: true } }), 404, "NOT_FOUND");
  });

  it("latest timestamp, per month and overall", async () => {
    const res = await call("/api/v1/transactions/latest?month=2024-10");
    expect(res.body.month).toBe("2024-10");
    expect(typeof res.body.latest).toBe("string");
    const overall = await call("/api/v1/transactions/latest");
    expect(overall.body.month).toBe("2024-11");
  });

  it("month validation", async () => {
    for (const m of ["2024-13", "2024-1", "24-10", ""]) {
      const e = expectEnvelope(await call(`/api/v1/transactions?month=${m}`), 422, "VALIDATION_ERROR");
      expect(e.details.errors[0].loc).toEqual(["query", "month"]);
    }
    expectEnvelope(await call("/api/v1/transactions"), 422, "VALIDATION_ERROR");
  });
});

describe("transactions: the editing loop", () => {
  let id: string;
  beforeEach(async () => {
    await clearTransactions();
    id = await seedTx({
      DateFileName: "2024.10.03_09.00_a.eml",
      Company: "Blue Bottle",
      Category: "coffee & cafes",
    });
    await env.DB.prepare(
      "INSERT INTO attention_queue VALUES ('me@example.com', '2024.10.03_09.00_a.eml', 'ai', 'x')",
    ).run();
  });

  it("category correction writes the audit, returns the old category and leaves the attention queue", async () => {
    const res = await call(tx(id), { method: "PATCH", body: { category: "Restaurant/Dining" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      tx_id: id,
      old_category: "coffee & cafes",
      new_category: "restaurant/dining",
      reviewed: true,
    });
    const row = (await call(`${tx(id)}/detail`)).body.transaction;
    expect(row.category).toBe("restaurant/dining");
    expect(row.needs_attention).toBe(false);
    expect(row.category_audit).toMatchObject({
      source: "manual",
      previous_category: "coffee & cafes",
      previous_source: "override",
    });
    expect(Date.parse(row.category_audit.reviewed_at)).not.toBeNaN();
  });

  it("unknown category is 422 and changes nothing", async () => {
    const e = expectEnvelope(
      await call(tx(id), { method: "PATCH", body: { category: "Yachts" } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(e.details.errors[0].loc).toEqual(["body", "category"]);
    expect((await call(`${tx(id)}/detail`)).body.transaction.category).toBe("coffee & cafes");
  });

  it("a review-only mark keeps the category and stamps the audit", async () => {
    const res = await call(tx(id), { method: "PATCH", body: { reviewed: true } });
    expect(res.body).toMatchObject({ old_category: "coffee & cafes", new_category: "coffee & cafes" });
    const row = (await call(`${tx(id)}/detail`)).body.transaction;
    expect(row.category).toBe("coffee & cafes");
    expect(row.category_audit).toMatchObject({ source: "audit", previous_source: "override" });
    expect(row.needs_attention).toBe(false);
    const review = await call(`${tx(id)}/review`, { method: "POST" });
    expect(review.body.source).toBe("audit");
  });

  it("state changes through PATCH, ignore and soft delete, and restore from trash", async () => {
    expect((await call(tx(id), { method: "PATCH", body: { state: "ignored" } })).body.state).toBe("ignored");
    expect((await call(`${tx(id)}/ignore`, { method: "POST", body: { ignored: false } })).body.ignored).toBe(
      false,
    );
    const del = await call(`${tx(id)}/delete`, { method: "POST", body: { deleted: true } });
    expect(del.body.deleted_at).toBeTruthy();
    expect((await call("/api/v1/transactions?month=2024-10")).body.count).toBe(0);
    expect((await call("/api/v1/transactions/trash?month=2024-10")).body.count).toBe(1);
    const restored = await call(`${tx(id)}/delete`, { method: "POST", body: { deleted: false } });
    expect(restored.body.deleted_at).toBeNull();
    expect((await call("/api/v1/transactions?month=2024-10")).body.count).toBe(1);
  });

  it("comment set and cleared", async () => {
    expect(
      (await call(`${tx(id)}/comment`, { method: "PUT", body: { comment: "  birthday  " } })).body.comment,
    ).toBe("birthday");
    expect((await call(`${tx(id)}/detail`)).body.transaction.comment).toBe("birthday");
    expect(
      (await call(`${tx(id)}/comment`, { method: "PUT", body: { comment: "" } })).body.comment,
    ).toBeNull();
    expectEnvelope(
      await call(`${tx(id)}/comment`, { method: "PUT", body: { comment: "x".repeat(2001) } }),
      422,
      "VALIDATION_ERROR",
    );
  });

  it("fields edit returns the old values", async () => {
    const res = await call(`${tx(id)}/fields`, {
      method: "PUT",
      body: { amount: 14.255, company: "Blue Bottle Coffee" },
    });
    expect(res.body).toMatchObject({
      amount: 14.26,
      company: "Blue Bottle Coffee",
      old_values: { amount: 10, company: "Blue Bottle" },
    });
    for (const body of [{}, { amount: -1 }, { amount: 0 }, { transaction_type: "gift" }, { company: "" }]) {
      expectEnvelope(await call(`${tx(id)}/fields`, { method: "PUT", body }), 422, "VALIDATION_ERROR");
    }
  });

  it("permanent delete only from the trash", async () => {
    expectEnvelope(await call(tx(id), { method: "DELETE" }), 409, "CONFLICT");
    await call(`${tx(id)}/delete`, { method: "POST", body: { deleted: true } });
    const res = await call(tx(id), { method: "DELETE" });
    expect(res.body).toMatchObject({ tx_id: id });
    expectEnvelope(await call(`${tx(id)}/detail`), 404, "NOT_FOUND");
  });

  it("rejects bad bodies with 422", async () => {
    expectEnvelope(await call(tx(id), { method: "PATCH", body: { state: "gone" } }), 422, "VALIDATION_ERROR");
    expectEnvelope(await call(tx(id), { method: "PATCH", body: { category: 5 } }), 422, "VALIDATION_ERROR");
    expectEnvelope(await call(`${tx(id)}/ignore`, { method: "POST", body: {} }), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await call(`${tx(id)}/delete`, { method: "POST", body: { deleted: "yes" } }),
      422,
      "VALIDATION_ERROR",
    );
  });

  it("bulk category update reports per row", async () => {
    await seedTx({ DateFileName: "2024.10.04_09.00_b.eml", Company: "Cafe 2" });
    const res = await call("/api/v1/transactions/bulk", {
      method: "PATCH",
      body: {
        updates: [
          { forwarded_to: "me@example.com", date_file_name: "2024.10.03_09.00_a.eml", category: "Groceries" },
          { forwarded_to: "me@example.com", date_file_name: "2024.10.04_09.00_b.eml", category: "groceries" },
          {
            forwarded_to: "me@example.com",
            date_file_name: "2024.10.05_00.00_none.eml",
            category: "groceries",
          },
          {
            forwarded_to: "me@example.com",
            date_file_name: "2024.10.04_09.00_b.eml",
            category: "Spaceships",
          },
        ],
      },
    });
    expect(res.body).toMatchObject({ total: 4, succeeded: 2, failed: 2 });
    expect(res.body.results[2]).toMatchObject({ ok: false, error: "transaction not found" });
    expect(res.body.results[3].error).toMatch(/unknown category/);
    const row = (await call(`${tx(id)}/detail`)).body.transaction;
    expect(row.category).toBe("groceries");
    expect(row.category_audit.source).toBe("manual_bulk");
    expectEnvelope(
      await call("/api/v1/transactions/bulk", { method: "PATCH", body: { updates: [] } }),
      422,
      "VALIDATION_ERROR",
    );
  });
});

describe("manual transactions", () => {
  beforeEach(clearTransactions);

  it("adds one with the storage rules; a second identical one is a 409 showing the first, and nothing is added", async () => {
    const body = { date: "2024-10-05", amount: 23.4, company: "Farmers Market", category: "Groceries" };
    const res = await call("/api/v1/transactions", { method: "POST", body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "created", category: "groceries" });
    expect(res.body.date_file_name).toMatch(/^2024\.10\.05_00\.00_manual_[0-9a-f]{8}\.eml$/);
    const list = await call("/api/v1/transactions?month=2024-10");
    expect(list.body.transactions[0]).toMatchObject({
      company: "Farmers Market",
      amount: 23.4,
      transaction_type: "purchase",
    });
    // Before: 200 {status: "duplicate"} in the shape of a creation, which the dashboard took for one.
    const dup = await call("/api/v1/transactions", { method: "POST", body });
    expectEnvelope(dup, 409, "DUPLICATE_TRANSACTION");
    expect(dup.body.error).toMatch(/already in the journal/);
    expect(dup.body.details).toMatchObject({
      tx_id: res.body.tx_id,
      existing: { tx_id: res.body.tx_id, company: "Farmers Market", amount: 23.4, category: "groceries" },
    });
    expect((await call("/api/v1/transactions?month=2024-10")).body.count).toBe(1);
  });

  it("adds a second identical purchase when asked to add anyway: two rows, each undoable", async () => {
    await env.DB.prepare("DELETE FROM activity_log").run();
    const body = { date: "2024-10-08", amount: 4.5, company: "Corner Bakery" };
    const first = await call("/api/v1/transactions", { method: "POST", body });
    expect(first.status).toBe(200);
    expect((await call("/api/v1/transactions", { method: "POST", body })).status).toBe(409);
    const again = await call("/api/v1/transactions", {
      method: "POST",
      body: { ...body, allow_duplicate: true },
    });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("created");
    expect(again.body.tx_id).not.toBe(first.body.tx_id);
    // A third, too: each "add anyway" is its own row.
    const third = await call("/api/v1/transactions", {
      method: "POST",
      body: { ...body, allow_duplicate: true },
    });
    expect(third.status).toBe(200);
    const month = await call("/api/v1/transactions?month=2024-10");
    expect(month.body.count).toBe(3);
    expect(month.body.transactions.map((t: { amount: number }) => t.amount)).toEqual([4.5, 4.5, 4.5]);
    // The Undo the toast offers (X-Activity-Id) deletes exactly the row it added.
    const undo = again.headers.get("x-activity-id");
    expect(undo).toMatch(/^act_/);
    const reverted = await call(`/api/v1/activity/${undo}/revert`, { method: "POST" });
    expect(reverted.status).toBe(200);
    const after = await call("/api/v1/transactions?month=2024-10");
    expect(after.body.transactions.map((t: { tx_id: string }) => t.tx_id).sort()).toEqual(
      [first.body.tx_id, third.body.tx_id].sort(),
    );
    expect((await call("/api/v1/transactions/trash?month=2024-10")).body.count).toBe(0);
    // The Activity page lists the add as reversible, and a second undo of it is refused.
    const listed = await call("/api/v1/activity?limit=20");
    const entry = listed.body.entries.find(
      (e: { id: string }) => e.id === first.headers.get("x-activity-id"),
    );
    expect(entry).toMatchObject({
      reversible: true,
      before: {},
      after: { Company: "Corner Bakery", Amount: 4.5 },
    });
    expect((await call(`/api/v1/activity/${undo}/revert`, { method: "POST" })).status).toBe(409);
  });

  it("an added row changed since: its undo is a stale 409 unless forced", async () => {
    const body = { date: "2024-10-09", amount: 12, company: "Stale Shop" };
    const res = await call("/api/v1/transactions", { method: "POST", body });
    const id = res.headers.get("x-activity-id");
    await call(`/api/v1/transactions/${res.body.tx_id}/comment`, {
      method: "PUT",
      body: { comment: "mine" },
    });
    const stale = await call(`/api/v1/activity/${id}/revert`, { method: "POST" });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe("stale_revert");
    expect((await call("/api/v1/transactions?month=2024-10")).body.count).toBe(1);
    expect((await call(`/api/v1/activity/${id}/revert?force=true`, { method: "POST" })).status).toBe(200);
    expect((await call("/api/v1/transactions?month=2024-10")).body.count).toBe(0);
  });

  it("journals the created row in its insert's own batch; a refused duplicate journals nothing", async () => {
    await env.DB.prepare("DELETE FROM activity_log").run();
    const body = { date: "2024-10-06", amount: 7.5, company: "Corner Store" };
    const counter = countingD1(env.DB);
    const res = await call("/api/v1/transactions", { method: "POST", body, env: { DB: counter.db } });
    expect(res.body.status).toBe("created");
    expectEntryInBatch(counter, "transactions");
    const dup = await call("/api/v1/transactions", { method: "POST", body });
    expect(dup.status).toBe(409);
    expect(dup.body.details.tx_id).toBe(res.body.tx_id);
    // Nothing changed, so the ledger holds the add alone.
    const entries = await ledger();
    expect(entries).toEqual([
      {
        resource_id: res.body.tx_id,
        summary: "created: Corner Store 7.5",
        operation_id: "addManualTransaction",
      },
    ]);
  });

  it("writes the context in the insert's own batch, as the reads after the insert compute it", async () => {
    await env.DB.prepare("DELETE FROM budget_config WHERE year = 2024").run();
    const doc = { spending_ceiling: 0, categories: { groceries: { target: 5400, monthly_amount: 450 } } };
    await env.DB.prepare(
      "INSERT INTO budget_config (user_id, year, kind, data, updated_at) VALUES ('default', 2024, 'targets', ?, 't')",
    )
      .bind(JSON.stringify(doc))
      .run();
    const add = (date: string, amount: number, category: string) =>
      call("/api/v1/transactions", {
        method: "POST",
        body: { date, amount, company: "Farmers Market", category },
      });
    await add("2024-10-05", 50, "Groceries");
    const counter = countingD1(env.DB);
    const body = { date: "2024-10-06", amount: 100, company: "Farmers Market", category: "Groceries" };
    const res = await call("/api/v1/transactions", { method: "POST", body, env: { DB: counter.db } });
    expect(res.body.status).toBe("created");
    // One trip writes the row, its context and its entry; nothing is written after it.
    const writes = counter.trips.filter((t) => t.sql.some((q) => /^\s*(insert|update)/i.test(q)));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.sql.join(" ; ")).toMatch(
      /insert into "transactions".*update "transactions" set "TransactionContext".*"activity_log"/,
    );
    const row = await env.DB.prepare("SELECT TransactionContext FROM transactions WHERE DateFileName = ?")
      .bind(res.body.date_file_name)
      .first<Record<string, string>>();
    const stored = JSON.parse(row!.TransactionContext!);
    expect(stored).toEqual({
      money: "cents",
      category_month_total: 15000,
      merchant_month_count: 2,
      category_budget_target: 45000,
      category_budget_pct: 33.3,
    });
    // Without a target (another year's row): the target and percentage are null.
    const other = await add("2023-10-06", 12, "Groceries");
    const ctx = await env.DB.prepare(
      "SELECT TransactionContext AS c FROM transactions WHERE DateFileName = ?",
    )
      .bind(other.body.date_file_name)
      .first<string>("c");
    expect(JSON.parse(ctx!)).toEqual({
      money: "cents",
      category_month_total: 1200,
      merchant_month_count: 1,
      category_budget_target: null,
      category_budget_pct: null,
    });
  });

  it("a same-minute key taken by another row: the entry rides in the suffixed insert", async () => {
    await env.DB.prepare("DELETE FROM activity_log").run();
    const body = { date: "2024-10-07", amount: 3, company: "Kiosk" };
    const first = await call("/api/v1/transactions", { method: "POST", body });
    // The stored row becomes another transaction under the same key (its hash no longer matches).
    await env.DB.prepare("UPDATE transactions SET TransactionHash = 'other', Amount = 999").run();
    await env.DB.prepare("DELETE FROM activity_log").run();
    const counter = countingD1(env.DB);
    const res = await call("/api/v1/transactions", { method: "POST", body, env: { DB: counter.db } });
    expect(res.body.status).toBe("created");
    expect(res.body.date_file_name).toBe(first.body.date_file_name.replace(/\.eml$/, "_2.eml"));
    expect(await ledger()).toEqual([
      { resource_id: res.body.tx_id, summary: "created: Kiosk 3", operation_id: "addManualTransaction" },
    ]);
    // The first batch failed on the key (its entry with it); the one written rode with the row.
    const last = counter.trips.filter((t) => t.sql.some((q) => /insert into "activity_log"/i.test(q))).at(-1);
    expect(last?.sql.some((q) => /insert into "transactions"/i.test(q))).toBe(true);
  });

  it("validates", async () => {
    for (const body of [
      { date: "2024-13-40", amount: 1, company: "x" },
      { date: "yesterday", amount: 1, company: "x" },
      { date: "2024-10-05", amount: 0, company: "x" },
      { date: "2024-10-05", amount: 1, company: "" },
      { date: "2024-10-05", amount: 1, company: "x", transaction_type: "gift" },
      { date: "2024-10-05", amount: 1, company: "x", category: "Unknown Cat" },
    ]) {
      expectEnvelope(await call("/api/v1/transactions", { method: "POST", body }), 422, "VALIDATION_ERROR");
    }
  });
});

describe("read scope", () => {
  it("a read token may list but not edit", async () => {
    await clearTransactions();
    const id = await seedTx({ DateFileName: "2024.10.03_09.00_a.eml" });
    const { token } = await seedToken("read");
    expect((await call("/api/v1/transactions?month=2024-10", { headers: bearer(token) })).status).toBe(200);
    expectEnvelope(
      await call(tx(id), { method: "PATCH", body: { reviewed: true }, headers: bearer(token) }),
      403,
      "FORBIDDEN",
    );
    expectEnvelope(
      await call("/api/v1/transactions/search-by-filter", {
        method: "POST",
        body: { from_month: "2024-01", to_month: "2024-02" },
        headers: bearer(token),
      }),
      403,
      "FORBIDDEN",
    );
  });
});
