// Issue 27's "Done when" on real alert emails of other projects' tests (../shared/corpora/project-peers/alerts,
// licences beside them; never committed here): for each bank, email 1 reaches Needs review through the upload door (not
// ignored), is resolved through the HTTP API as the dashboard does (typing a tidied name, as a person
// would) and learned; every later email of that wording is read exactly (cents, date, merchant), by
// the template's dry run and then through the door as a transaction; a second wording of the same
// bank merges into the template after one more resolve, or is kept apart with the reason in words.
// One table of banks, one test body (`learnsBank`).
import { beforeEach, describe, expect, it } from "vitest";
import { corpus, emlOf } from "../fixtures/alerts/corpora";
import { resetAlertTables, upload } from "../fixtures/alerts/helpers";
import { call } from "../helpers/http";
import { resolve } from "../helpers/learn";

const files = corpus("peers");
const eml = (name: string) => emlOf(files, name);

/** What a later email must read: cents as decimal, the printed merchant, the day (and time). */
interface Read {
  amount: number;
  company: string;
  /** YYYY-MM-DD the body prints; null when it prints none (the sent day is the transaction's). */
  date: string | null;
  time?: string;
  /** The day the transaction is filed under (defaults to `date`). */
  day?: string;
}

/** What a person types in the resolve form. */
interface Typed {
  date: string;
  amount: number;
  company: string;
  institution: string;
  transaction_type?: string;
}

interface Wording {
  first: string;
  typed: Typed;
  /** Later emails of this wording and what each must read. */
  later: [string, Read][];
}

interface Bank extends Wording {
  title: string;
  /** Email 1 is let go by the relevance check (the ignored-email list takes it to Needs review). */
  ignored?: boolean;
  /** A second wording of the bank: `merges` into the first template, or is kept apart (note matches). */
  second?: Wording & { merges: boolean; note: RegExp | null };
}

/**
 * Email 1 through the door into Needs review: quarantined, or (`ignored`) let go by the relevance
 * check, found in the ignored-email list with its reason and sent on with "this was a bank alert".
 */
async function toReview(name: string, ignored = false): Promise<string> {
  const res = await upload(eml(name));
  expect(res.status, res.text).toBe(200);
  if (ignored) {
    expect(res.body.status, `${name}: ${res.text}`).toBe("ignored");
    const list = await call("/api/v1/ignored-emails");
    const item = list.body.emails.find((e: any) => eml(name).includes(`Subject: ${e.subject}`));
    expect(item?.reason_text, name).toMatch(/only one word alerts use/);
    const moved = await call(`/api/v1/ignored-emails/${item.id}/bank-alert`, { method: "POST" });
    expect(moved.body, moved.text).toMatchObject({ status: "sent_to_review", outcome: "quarantined" });
    return moved.body.failure_id;
  }
  expect(res.body.status, `${name}: ${res.text}`).toBe("quarantined");
  const id = /quarantined as (\S+)$/.exec(res.body.detail ?? "")?.[1];
  if (!id) throw new Error(`${name}: no failure id in ${res.text}`);
  return id;
}

/** The template's dry run reads the email exactly; then the same email through the door is a transaction. */
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
  expect(res.body, `${name}: ${res.text}`).toMatchObject({ status: "created", amount: want.amount });
  const day = (want.day ?? want.date ?? "").replaceAll("-", ".");
  expect(res.body.date_file_name, name).toMatch(new RegExp(`^${day}_${(want.time ?? "").replace(":", ".")}`));
}

async function learnsBank(bank: Bank) {
  const a = await resolve(await toReview(bank.first, bank.ignored), bank.typed);
  expect(a, JSON.stringify(a)).toMatchObject({ template_reason: null, template_note: null });
  for (const [name, want] of bank.later) await readsExactly(a.template_id, name, want);
  const second = bank.second;
  if (!second) return;
  const b = await resolve(await toReview(second.first), second.typed);
  expect(b.template_reason, b.template_note).toBeNull();
  if (second.note) expect(b.template_note).toMatch(second.note);
  else expect(b.template_note).toBeNull();
  if (second.merges) {
    expect(b.template_id).toBe(a.template_id);
    // One template of the sender now, reading both examples as they were resolved.
    const list = await call("/api/v1/templates");
    const domain = list.body.templates.find((t: any) => t.id === a.template_id)?.sender_domain;
    expect(list.body.templates.filter((t: any) => t.sender_domain === domain)).toHaveLength(1);
    for (const [name, typed] of [
      [bank.first, bank.typed],
      [second.first, second.typed],
    ] as const) {
      const dry = await call(`/api/v1/templates/${a.template_id}/test`, {
        method: "POST",
        body: { raw: eml(name) },
      });
      expect(dry.body, name).toMatchObject({ matched: true, amount: typed.amount, date: typed.date });
    }
  } else expect(b.template_id).not.toBe(a.template_id);
  for (const [name, want] of second.later) await readsExactly(b.template_id, name, want);
}

const BANKS: Bank[] = [
  {
    title: "Colombia, Davivienda: a tidied, shortened name; the next alert reads the printed one",
    first: "co-davivienda/card-purchase-1",
    typed: { date: "2018-11-23", amount: 18000, company: "Cafe San Alberto", institution: "Davivienda" },
    later: [
      [
        "co-davivienda/card-purchase-2",
        { amount: 18000, company: "CAFE SAN ALBERTO MUSE0", date: "2018-11-23", time: "15:33" },
      ],
    ],
  },
  {
    title: "India, ICICI: cents printed or not, multi-word merchants",
    first: "in-icici/refund-1",
    typed: {
      date: "2026-01-14",
      amount: 1234.56,
      company: "Sample Merchant",
      institution: "ICICI",
      transaction_type: "deposit",
    },
    later: [
      ["in-icici/refund-2", { amount: 535, company: "SAMPLE MULTI WORD MERCHANT", date: "2022-12-19" }],
    ],
  },
  {
    title: "Japan, Japan Net Bank: full-width names; a line added between the values does not stop it",
    first: "jp-japannetbank/visaWithdrawn-1",
    typed: { date: "2001-02-03", amount: 2760, company: "AMAZON CO JP", institution: "JNB" },
    later: [
      [
        "jp-japannetbank/visaWithdrawn-2",
        { amount: 1, company: "ＧＩＴＨＵＢ", date: "2001-02-03", time: "04:05" },
      ],
    ],
  },
  {
    title:
      "Singapore, DBS: every later transfer of the wording, yearless dates, amounts with and without a comma",
    first: "sg-dbs/transfer-out-bank-fast-interbank",
    typed: {
      date: "2021-09-28",
      amount: 1900,
      company: "Bugs Bunny A/C ending 0000",
      institution: "DBS",
      transaction_type: "e-transfer",
    },
    later: [
      [
        "sg-dbs/transfer-out-bank-own-account",
        { amount: 1885.53, company: "Emergency Fund (A/C ending 1111)", date: "2021-09-28", time: "08:59" },
      ],
      [
        "sg-dbs/transfer-out-credit-card",
        { amount: 1327.44, company: "DBS/POSB card ending 2912", date: "2021-09-28", time: "08:55" },
      ],
      [
        "sg-dbs/transfer-out-paynow",
        { amount: 16, company: "Shariful (Mobile no. ending 0000)", date: "2021-09-27", time: "13:48" },
      ],
    ],
  },
  {
    title:
      "India, Kotak credit cards: two-digit years; 'spent on' after 'spent at' is read by its anchors (issue 37)",
    first: "in-kotak/credit-card-1",
    typed: { date: "2026-04-09", amount: 58, company: "Sample Store", institution: "Kotak" },
    later: [
      ["in-kotak/credit-card-2", { amount: 1500, company: "Big Bazaar", date: "2026-01-15", time: "14:30" }],
      ["in-kotak/credit-card-3", { amount: 250, company: "Swiggy", date: "2026-03-20", time: "18:45" }],
    ],
  },
  {
    title:
      "India, Kotak debit cards: a time zone added after the time: the next alert is read exactly by its anchors (issue 37)",
    first: "in-kotak/debit-card-1",
    typed: { date: "2026-04-11", amount: 711, company: "Blinkit", institution: "Kotak" },
    later: [
      [
        "in-kotak/debit-card-3",
        { amount: 5500.5, company: "SAMPLE MERCHANT", date: "2026-04-22", time: "22:36" },
      ],
    ],
  },
  {
    title: "Mexico, Banorte: dd/Mon dates in Spanish; another subject merges after one more resolve",
    first: "mx-banorte/charge-email",
    typed: { date: "2020-02-10", amount: 63.37, company: "Compra en Uber Trip", institution: "Banorte" },
    later: [],
    second: {
      first: "mx-banorte/cash-withdrawal-alt-email",
      typed: {
        date: "2019-05-14",
        amount: 337.88,
        company: "Disposicion de efectivo",
        institution: "Banorte",
      },
      merges: true,
      note: /^merged into/,
      later: [
        [
          "mx-banorte/service-payment-email",
          { amount: 4000, company: "PAGO DE SERVICIOS", date: "2019-11-27", time: "17:07" },
        ],
      ],
    },
  },
  {
    title: "Switzerland, PostFinance (French): thousands marked by ’, the sent day; a debit is kept apart",
    first: "ch-postfinance/credit-1",
    typed: {
      date: "2023-07-04",
      amount: 12.6,
      company: "abc",
      institution: "PostFinance",
      transaction_type: "deposit",
    },
    later: [
      ["ch-postfinance/credit-thousands", { amount: 6940.5, company: "abc", date: null, day: "2023-07-05" }],
    ],
    second: {
      first: "ch-postfinance/debit-1",
      typed: { date: "2023-07-03", amount: 12.6, company: "abc", institution: "PostFinance" },
      merges: false,
      // Another transaction type: a template of its own, no merge tried.
      note: null,
      later: [],
    },
  },
  {
    title: "India, Equitas: 05/05/2026 leaves the day order open; the next alert's 12/04/2026 is 12 April",
    first: "in-equitas/payment-received-1",
    typed: {
      date: "2026-05-05",
      amount: 12345,
      company: "Equitas Credit Card",
      institution: "Equitas",
      transaction_type: "deposit",
    },
    later: [
      [
        "in-equitas/payment-received-2",
        { amount: 1234.56, company: "Equitas Credit Card XX8765", date: "2026-04-12" },
      ],
    ],
  },
  {
    title:
      "Panama, Davivienda: the bank wraps its lines, the merchant runs over a break; read however it wraps",
    first: "pa-davivienda/debit-purchase-1",
    typed: {
      date: "2019-06-01",
      amount: 109.9,
      company: "AMZN Mktp US zn com bill W A",
      institution: "Davivienda Panama",
    },
    later: [
      [
        "pa-davivienda/debit-purchase-2",
        { amount: 103.21, company: "SPORTS BASEMENT", date: null, day: "2019-05-31" },
      ],
      [
        "pa-davivienda/debit-purchase-3",
        { amount: 109.9, company: "AMZN Mktp US zn com bill W A", date: null, day: "2019-06-02" },
      ],
    ],
  },
  {
    title: "United States, USAA: the payee on a line of its own under its label; another payee read exactly",
    first: "us-usaa/account-debit-1",
    typed: { date: "2026-08-04", amount: 88.45, company: "USAA Debit", institution: "USAA" },
    later: [
      ["us-usaa/account-debit-2", { amount: 88.45, company: "SAMPLE ELECTRIC COMPANY", date: "2026-08-04" }],
    ],
  },
  {
    title:
      "India, Kotak811: reaches review (its amount and two alert words, issue 37), resolved, the next one read",
    first: "in-kotak/kotak811-1",
    typed: { date: "2026-01-14", amount: 4321, company: "Kotak811", institution: "Kotak811" },
    later: [["in-kotak/kotak811-2", { amount: 1250.5, company: "Kotak811", date: null, day: "2026-01-19" }]],
  },
];

beforeEach(resetAlertTables);

describe.skipIf(!files)("real alerts of other banks, learned from one resolve each", () => {
  for (const bank of BANKS) it(bank.title, () => learnsBank(bank));

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
      ["mx-banorte/charge-email", { amount: 63.37, date: "2020-02-10", time: "08:14" }],
    ];
    for (const [name, want] of cases) {
      const id = await toReview(name);
      const detail = await call(`/api/v1/parse-failures/${id}`);
      expect(detail.status).toBe(200);
      expect(detail.body.suggestion, name).toMatchObject(want);
    }
  });
});
