import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { bearer, seedToken } from "../helpers/auth";
import { countingD1 } from "../../bench/lib/d1-count";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { seedTx } from "../helpers/seed";
import { receiptFixture } from "../fixtures/receipts";

const NOW = "2024-10-20T12:00:00.000Z";
let n = 0;

async function receipt(): Promise<string> {
  const fd = new FormData();
  fd.append("file", new File([receiptFixture("receipt.jpg")], `r${++n}.jpg`, { type: "image/jpeg" }));
  const res = await call("/api/v1/attachments", { method: "POST", rawBody: fd, now: NOW });
  if (res.status !== 200) throw new Error(res.text);
  return res.body.id;
}

const candidates = (id: string, q: Record<string, string | number>, opts: Parameters<typeof call>[1] = {}) =>
  call(
    `/api/v1/attachments/${id}/candidates?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`,
    {
      now: NOW,
      ...opts,
    },
  );

const tx = (day: string, amount: number, company: string, category = "restaurant/dining", extra = "") =>
  seedTx({
    DateFileName: `${day.replaceAll("-", ".")}_12.00_${company.replaceAll(" ", "")}${extra}.eml`,
    Amount: amount,
    Company: company,
    Category: category,
  });

beforeEach(async () => {
  await env.DB.batch(
    ["attachments", "transactions", "activity_log", "merchant_aliases"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
});

describe("its window", () => {
  it("the window of its typed or parsed day", async () => {
    // Two T2 rows and no T1: nothing to auto-link, the GET only reads.
    const t2 = await tx("2024-10-13", 30.55, "CORNER BISTRO #12");
    await tx("2024-10-16", 30.55, "Some Other Place");
    const id = await receipt();
    const read = async (q: Record<string, string | number>) => {
      const res = await candidates(id, q);
      expect(res.status, res.text).toBe(200);
      return { body: res.body };
    };
    const typed = await read({ total: 30.55, date: "2024-10-14", merchant: "Corner Bistro" });
    expect(typed.body.candidates.map((c: any) => [c.tx_id, c.tier])[0]).toEqual([t2, 2]);
    expect(typed.body.auto_linked).toBe(false);
    // The parsed day (stored JSON) gives the same window; a typed day overrides it.
    await env.DB.prepare("UPDATE attachments SET parse_status = 'parsed', parse_json = ? WHERE id = ?")
      .bind(JSON.stringify({ merchant: "Corner Bistro", date: "2024-10-14", total: 30.55 }), id)
      .run();
    const parsed = await read({});
    expect(parsed.body.candidates).toEqual(typed.body.candidates);
    const moved = await read({ date: "2024-10-19" });
    expect(moved.body.candidates.map((c: any) => c.date)).toEqual(["2024-10-16"]);
  });
});

describe("tiers and their ordering", () => {
  it("T1 (same day, same merchant, ±0.02) before T2 (±3 days) before T3 (tip band); non-candidates left out", async () => {
    const t1 = await tx("2024-10-14", 30.56, "CORNER BISTRO #12");
    const t2 = await tx("2024-10-16", 30.55, "Some Other Place");
    const t3 = await tx("2024-10-14", 36.0, "Corner Bistro", "restaurant/dining", "-tip");
    await tx("2024-10-14", 30.6, "Corner Bistro", "groceries", "-off5"); // 0.05 away: not within 0.02
    await tx("2024-10-18", 30.55, "Corner Bistro", "restaurant/dining", "-far"); // 4 days away
    await tx("2024-10-14", 37.0, "Corner Bistro", "restaurant/dining", "-overtip"); // 21% above
    await tx("2024-10-14", 33.0, "Hardware Store", "home maintenance"); // +8% but not a tipping category
    const id = await receipt();
    const res = await candidates(id, { total: 30.55, date: "2024-10-14", merchant: "Corner Bistro" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.candidates.map((c: any) => [c.tx_id, c.tier])).toEqual([
      [t1, 1],
      [t2, 2],
      [t3, 3],
    ]);
    expect(res.body.candidates[0]).toMatchObject({
      day_distance: 0,
      amount_distance: 0.01,
      amount: 30.56,
      date: "2024-10-14",
    });
    expect(res.body.candidates[1]).toMatchObject({ day_distance: 2, amount_distance: 0 });
    // Exactly one T1: linked by this request.
    expect(res.body).toMatchObject({
      auto_link_candidate: true,
      auto_linked: true,
      attachment: { tx_id: t1 },
    });
  });

  it("the merchant matches through normalization and aliases", async () => {
    const alias = await call(`/api/v1/merchant-aliases/${encodeURIComponent("CB RESTAURANT GROUP")}`, {
      method: "PUT",
      body: { canonical_name: "Corner Bistro" },
    });
    expect(alias.status, alias.text).toBe(200);
    const t1 = await tx("2024-10-14", 30.55, "CB RESTAURANT GROUP 0042, VANCOUVER, BC");
    const id = await receipt();
    const res = await candidates(id, { total: 30.55, date: "2024-10-14", merchant: "Corner Bistro" });
    expect(res.body.candidates).toMatchObject([{ tx_id: t1, tier: 1 }]);
  });

  it("two T1 candidates: nothing is linked, the person picks", async () => {
    await tx("2024-10-14", 30.55, "Corner Bistro", "restaurant/dining", "-a");
    await tx("2024-10-14", 30.54, "Corner Bistro", "restaurant/dining", "-b");
    const id = await receipt();
    const res = await candidates(id, { total: 30.55, date: "2024-10-14", merchant: "Corner Bistro" });
    expect(res.body.candidates.map((c: any) => c.tier)).toEqual([1, 1]);
    expect(res.body).toMatchObject({
      auto_link_candidate: false,
      auto_linked: false,
      attachment: { tx_id: null },
    });
  });

  it("a lone T2 is never auto-linked", async () => {
    await tx("2024-10-15", 30.55, "Corner Bistro");
    const id = await receipt();
    const res = await candidates(id, { total: 30.55, date: "2024-10-14", merchant: "Corner Bistro" });
    expect(res.body).toMatchObject({ auto_linked: false, candidates: [{ tier: 2 }] });
  });

  it("rows that already carry a receipt are demoted, not hidden, and not auto-linked", async () => {
    const taken = await tx("2024-10-14", 30.55, "Corner Bistro", "restaurant/dining", "-taken");
    const free = await tx("2024-10-16", 30.55, "Elsewhere");
    const first = await receipt();
    await call(`/api/v1/attachments/${first}/link`, { method: "POST", body: { tx_id: taken } });
    const id = await receipt();
    const res = await candidates(id, { total: 30.55, date: "2024-10-14", merchant: "Corner Bistro" });
    expect(res.body.candidates.map((c: any) => [c.tx_id, c.tier, c.already_has_receipt])).toEqual([
      [free, 2, false],
      [taken, 1, true],
    ]);
    expect(res.body.auto_linked).toBe(false);
  });

  it("at most 8 candidates", async () => {
    for (let i = 0; i < 11; i++)
      await tx("2024-10-14", 30.55, `Place ${String.fromCharCode(65 + i)}`, "groceries");
    const id = await receipt();
    const res = await candidates(id, { total: 30.55, date: "2024-10-14" });
    expect(res.body.candidates).toHaveLength(8);
  });

  it("deleted, ignored and deposit rows are never candidates", async () => {
    await seedTx({ DateFileName: "2024.10.14_12.00_del.eml", Amount: 30.55, DeletedAt: NOW });
    await seedTx({ DateFileName: "2024.10.14_12.00_ign.eml", Amount: 30.55, Ignored: 1 });
    await seedTx({ DateFileName: "2024.10.14_12.00_dep.eml", Amount: 30.55, TransactionType: "e-transfer" });
    const id = await receipt();
    expect((await candidates(id, { total: 30.55, date: "2024-10-14" })).body.candidates).toEqual([]);
  });
});

describe("the search window", () => {
  it("near a month boundary the adjacent month is searched; mid-month it is not", async () => {
    const nov = await tx("2024-11-02", 30.55, "Corner Bistro");
    await tx("2024-11-14", 30.55, "Corner Bistro", "restaurant/dining", "-mid");
    const id = await receipt();
    const edge = await candidates(id, { total: 30.55, date: "2024-10-31" });
    expect(edge.body.candidates.map((c: any) => [c.tx_id, c.day_distance])).toEqual([[nov, 2]]);
    const mid = await candidates(id, { total: 30.55, date: "2024-10-14" });
    expect(mid.body.candidates).toEqual([]);
  });

  it("also backwards across a year boundary", async () => {
    const dec = await tx("2023-12-30", 12.0, "Cafe", "coffee & cafes");
    const id = await receipt();
    const res = await candidates(id, { total: 12, date: "2024-01-01" });
    expect(res.body.candidates.map((c: any) => c.tx_id)).toEqual([dec]);
  });
});

describe("auto-link: journaled, reversible, never in demo mode or for a read token", () => {
  it("the auto-link is an activity entry with the caller as principal, and revert unlinks", async () => {
    const t1 = await tx("2024-10-14", 30.55, "Corner Bistro");
    const id = await receipt();
    const { token } = await seedToken("read+write", "phone");
    const counter = countingD1(env.DB);
    const res = await candidates(
      id,
      { total: 30.55, date: "2024-10-14", merchant: "Corner Bistro" },
      { headers: bearer(token), env: { DB: counter.db } },
    );
    expect(res.body.auto_linked).toBe(true);
    // The link and its entry in one batch, the entry only where the guarded link landed.
    expectEntryInBatch(counter, "attachments");
    const entries = (await call("/api/v1/activity?operation=listReceiptMatchCandidates")).body.entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      principal_kind: "token",
      principal_label: "phone",
      resource_id: id,
      before: { tx_id: null },
      after: { tx_id: t1 },
      reversible: true,
    });
    const reverted = await call(`/api/v1/activity/${entries[0].id}/revert`, { method: "POST" });
    expect(reverted.status, reverted.text).toBe(200);
    expect((await call(`/api/v1/transactions/${t1}/attachments`)).body.count).toBe(0);
    // Asking again links again (the receipt is unfiled once more).
    expect(
      (await candidates(id, { total: 30.55, date: "2024-10-14", merchant: "Corner Bistro" })).body
        .auto_linked,
    ).toBe(true);
  });

  it("demo mode, read tokens and cross-site pages only name the candidate", async () => {
    await tx("2024-10-14", 30.55, "Corner Bistro");
    const id = await receipt();
    const q = { total: 30.55, date: "2024-10-14", merchant: "Corner Bistro" };
    const demo = await candidates(id, q, { env: { DEMO_MODE: "true" } });
    expect(demo.body).toMatchObject({
      auto_link_candidate: true,
      auto_linked: false,
      attachment: { tx_id: null },
    });
    const { token } = await seedToken("read", "reader");
    const read = await candidates(id, q, { headers: bearer(token) });
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({
      auto_link_candidate: true,
      auto_linked: false,
      attachment: { tx_id: null },
    });
    const crossSite = await candidates(id, q, { headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.body).toMatchObject({ auto_link_candidate: true, auto_linked: false });
    expect((await call("/api/v1/activity?operation=listReceiptMatchCandidates")).body.entries).toEqual([]);
  });

  it("without a parse or a typed total and date: 409; a bad date is 422; unknown id 404", async () => {
    const id = await receipt();
    expectEnvelope(await candidates(id, {}), 409, "CONFLICT");
    expectEnvelope(await candidates(id, { total: 5, date: "14/10/2024" }), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await candidates("att_ffffffffffffffff", { total: 5, date: "2024-10-14" }),
      404,
      "NOT_FOUND",
    );
  });

  it("unmatched receipts never create transactions", async () => {
    const id = await receipt();
    const res = await candidates(id, { total: 99.99, date: "2024-10-14", merchant: "Nowhere" });
    expect(res.body.candidates).toEqual([]);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first<number>("n");
    expect(count).toBe(0);
  });
});
