// Issue 27's "Done when" on real alert emails of other projects' tests (test/fixtures/alerts/peers,
// licences beside them): for each wording, email 1 reaches Needs review through the upload door, is
// resolved through the HTTP API as the dashboard does (typing a tidied name, as a person would) and
// learned; every later email of that wording is read exactly (cents, date, merchant); a second
// wording of the same bank merges into the template after one more resolve, or is kept apart with
// the reason in words.
import { beforeEach, describe, expect, it } from "vitest";
import { resetAlertTables, upload } from "../fixtures/alerts/helpers";
import { call } from "../helpers/http";

const files = import.meta.glob("../fixtures/alerts/peers/**/*.eml", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;
const eml = (name: string) => {
  const raw = files[`../fixtures/alerts/peers/${name}.eml`];
  if (!raw) throw new Error(`no fixture ${name}`);
  return raw;
};

interface Read {
  amount: number;
  company: string;
  date: string;
  time?: string;
}

async function toReview(name: string): Promise<string> {
  const res = await upload(eml(name));
  expect(res.status, res.text).toBe(200);
  expect(res.body.status, `${name}: ${res.text}`).toBe("quarantined");
  const id = /quarantined as (\S+)$/.exec(res.body.detail ?? "")?.[1];
  if (!id) throw new Error(`${name}: no failure id in ${res.text}`);
  return id;
}

async function resolve(id: string, body: Record<string, unknown>) {
  const res = await call(`/api/v1/parse-failures/${id}/resolve`, { method: "POST", body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** What the template reads from a later email (dry run), then the same email through the door. */
async function readsExactly(templateId: string, name: string, want: Read) {
  const dry = await call(`/api/v1/templates/${templateId}/test`, {
    method: "POST",
    body: { raw: eml(name) },
  });
  expect(dry.status, dry.text).toBe(200);
  expect(dry.body, `${name}: ${dry.body.reason}`).toMatchObject({
    matched: true,
    amount: want.amount,
    company: want.company,
    date: want.date,
    ...(want.time ? { time: want.time } : {}),
  });
  const res = await upload(eml(name));
  expect(["created", "duplicate"], `${name}: ${res.text}`).toContain(res.body.status);
}

beforeEach(resetAlertTables);

describe("real alerts of other banks, learned from one resolve each", () => {
  it("Colombia, Davivienda: a tidied, shortened name; the next alert reads the printed one", async () => {
    const id = await toReview("co-davivienda/card-purchase-1");
    const a = await resolve(id, {
      date: "2018-11-23",
      amount: 18000,
      company: "Cafe San Alberto",
      institution: "Davivienda",
    });
    expect(a.template_reason).toBeNull();
    await readsExactly(a.template_id, "co-davivienda/card-purchase-2", {
      amount: 18000,
      company: "CAFE SAN ALBERTO MUSE0",
      date: "2018-11-23",
      time: "15:33",
    });
  });

  it("India, ICICI: cents printed or not, multi-word merchants", async () => {
    const id = await toReview("in-icici/refund-1");
    const a = await resolve(id, {
      date: "2026-01-14",
      amount: 1234.56,
      company: "Sample Merchant",
      institution: "ICICI",
      transaction_type: "deposit",
    });
    expect(a.template_reason).toBeNull();
    await readsExactly(a.template_id, "in-icici/refund-2", {
      amount: 535,
      company: "SAMPLE MULTI WORD MERCHANT",
      date: "2022-12-19",
    });
  });

  it("Japan, Japan Net Bank: full-width names; a line added between the values does not stop it", async () => {
    const id = await toReview("jp-japannetbank/visaWithdrawn-1");
    const a = await resolve(id, {
      date: "2001-02-03",
      amount: 2760,
      company: "AMAZON CO JP",
      institution: "JNB",
    });
    expect(a.template_reason).toBeNull();
    await readsExactly(a.template_id, "jp-japannetbank/visaWithdrawn-2", {
      amount: 1,
      company: "ＧＩＴＨＵＢ",
      date: "2001-02-03",
      time: "04:05",
    });
  });

  it("Singapore, DBS: every later transfer of the wording, yearless dates, amounts with and without a comma", async () => {
    const id = await toReview("sg-dbs/transfer-out-bank-fast-interbank");
    const a = await resolve(id, {
      date: "2021-09-28",
      amount: 1900,
      company: "Bugs Bunny A/C ending 0000",
      institution: "DBS",
      transaction_type: "e-transfer",
    });
    expect(a.template_reason).toBeNull();
    await readsExactly(a.template_id, "sg-dbs/transfer-out-bank-own-account", {
      amount: 1885.53,
      company: "Emergency Fund (A/C ending 1111)",
      date: "2021-09-28",
      time: "08:59",
    });
    await readsExactly(a.template_id, "sg-dbs/transfer-out-credit-card", {
      amount: 1327.44,
      company: "DBS/POSB card ending 2912",
      date: "2021-09-28",
      time: "08:55",
    });
    await readsExactly(a.template_id, "sg-dbs/transfer-out-paynow", {
      amount: 16,
      company: "Shariful (Mobile no. ending 0000)",
      date: "2021-09-27",
      time: "13:48",
    });
  });

  it("India, Kotak credit cards: two-digit years; 'spent on' is a second wording kept apart in words", async () => {
    const id = await toReview("in-kotak/credit-card-1");
    const a = await resolve(id, {
      date: "2026-04-09",
      amount: 58,
      company: "Sample Store",
      institution: "Kotak",
    });
    expect(a.template_reason).toBeNull();
    await readsExactly(a.template_id, "in-kotak/credit-card-2", {
      amount: 1500,
      company: "Big Bazaar",
      date: "2026-01-15",
      time: "14:30",
    });
    const other = await toReview("in-kotak/credit-card-3");
    const b = await resolve(other, {
      date: "2026-03-20",
      amount: 250,
      company: "Swiggy",
      institution: "Kotak",
    });
    expect(b.template_reason).toBeNull();
    expect(b.template_id).not.toBe(a.template_id);
    expect(b.template_note).toMatch(/^kept as a second template of this bank, not merged: .*merchant/);
  });

  it("India, Kotak debit cards: a second wording (a time zone after the time) merges after one more resolve", async () => {
    const id = await toReview("in-kotak/debit-card-1");
    const a = await resolve(id, {
      date: "2026-04-11",
      amount: 711,
      company: "Blinkit",
      institution: "Kotak",
    });
    expect(a.template_reason).toBeNull();
    const second = await toReview("in-kotak/debit-card-3");
    const b = await resolve(second, {
      date: "2026-04-22",
      amount: 5500.5,
      company: "Sample Merchant",
      institution: "Kotak",
    });
    expect(b.template_note).toMatch(/^merged into/);
    expect(b).toMatchObject({ template_id: a.template_id, template_reason: null });
    const list = await call("/api/v1/templates");
    expect(list.body.templates.filter((t: any) => t.sender_domain === "kotak.example")).toHaveLength(1);
    // The merged template reads both examples exactly.
    for (const [name, want] of [
      ["in-kotak/debit-card-1", { amount: 711, company: "Blinkit", date: "2026-04-11", time: "15:13" }],
      [
        "in-kotak/debit-card-3",
        { amount: 5500.5, company: "SAMPLE MERCHANT", date: "2026-04-22", time: "22:36" },
      ],
    ] as const) {
      const dry = await call(`/api/v1/templates/${a.template_id}/test`, {
        method: "POST",
        body: { raw: eml(name) },
      });
      expect(dry.body, name).toMatchObject({ matched: true, ...want });
    }
  });

  it("the resolve form is prefilled with what each email plainly says (issue 25)", async () => {
    const cases: [string, Record<string, unknown>][] = [
      [
        "sg-dbs/transfer-out-bank-fast-interbank",
        { amount: 1900, date: "2021-09-28", time: "08:58", company: "Bugs Bunny A/C ending 0000" },
      ],
      ["in-kotak/credit-card-1", { amount: 58, date: "2026-04-09", time: "09:01", company: "Sample Store" }],
      [
        "co-davivienda/card-purchase-1",
        { amount: 18000, date: "2018-11-23", company: "CAFE SAN ALBERTO MUSEO" },
      ],
      ["jp-japannetbank/visaWithdrawn-1", { amount: 2760, date: "2001-02-03", time: "04:05" }],
    ];
    for (const [name, want] of cases) {
      const id = await toReview(name);
      const detail = await call(`/api/v1/parse-failures/${id}`);
      expect(detail.status).toBe(200);
      expect(detail.body.suggestion, name).toMatchObject(want);
    }
  });
});
