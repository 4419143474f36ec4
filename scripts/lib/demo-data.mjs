// A believable demo household, generated from a fixed seed and clock: ~8 months of bank alerts over
// five institutions in the banks' own wording (./demo-alerts.mjs), a card statement and the rules
// and budget a person would have set up. Nothing here writes rows: the Worker sends every alert
// and the statement through the real pipeline (src/domains/system/demo-household.ts), so the demo
// shows what real data shows.
import { alertEmail } from "./demo-alerts.mjs";
import { prng } from "./prng.mjs";

const TZ = "America/Los_Angeles";
export const DEMO_RECIPIENT = "demo@finance-journal.example";
export const DEMO_NAME = "Alex";

export { prng };

// [company, category, min, max, per-month frequency, type, institution]
const MERCHANTS = [
  ["Safeway #1432", "Groceries", 35, 180, 6, "purchase", "RBC"],
  ["Whole Foods Market", "Groceries", 20, 140, 3, "purchase", "CIBC"],
  ["Costco Wholesale", "Groceries", 90, 320, 2, "purchase", "RBC"],
  ["Blue Bottle Coffee", "Coffee & Cafes", 4.5, 14, 9, "purchase", "MBNA"],
  ["Starbucks #0921", "Coffee & Cafes", 4, 11, 5, "purchase", "PC Financial"],
  ["Chevron 0091", "Gasoline", 38, 82, 4, "purchase", "CIBC"],
  ["Shell Canada", "Gasoline", 30, 75, 2, "purchase", "MBNA"],
  ["Uber Trip", "Rideshare & Taxi", 9, 42, 3, "purchase", "MBNA"],
  ["The Keg Steakhouse", "Restaurant/Dining", 60, 190, 1, "purchase", "RBC"],
  ["Pho Hoa", "Restaurant/Dining", 18, 45, 3, "purchase", "CIBC"],
  ["DoorDash", "Restaurant/Dining", 22, 65, 3, "purchase", "MBNA"],
  ["Amazon.ca", "Home Goods", 12, 160, 4, "purchase", "PC Financial"],
  ["IKEA Coquitlam", "Home Goods", 40, 400, 0.4, "purchase", "RBC"],
  ["Shoppers Drug Mart", "Health Care", 8, 70, 2, "purchase", "PC Financial"],
  ["Goodlife Fitness", "Fitness", 54.99, 54.99, 1, "preauth", "CIBC"],
  ["Netflix.com", "Subscriptions", 20.99, 20.99, 1, "purchase", "MBNA"],
  ["Spotify P2A8F", "Subscriptions", 11.99, 11.99, 1, "purchase", "MBNA"],
  ["Telus Mobility", "Phone", 85, 85, 1, "preauth", "CIBC"],
  ["Shaw Internet", "Internet", 95, 95, 1, "preauth", "CIBC"],
  ["BC Hydro", "Utilities", 60, 140, 1, "preauth", "CIBC"],
  ["Intact Insurance", "Insurance", 142.5, 142.5, 1, "preauth", "CIBC"],
  ["Compass Card", "Public Transit", 20, 50, 2, "purchase", "RBC"],
  ["Petsmart", "Pets", 25, 90, 1, "purchase", "PC Financial"],
  ["Indigo Books", "Hobbies", 15, 60, 0.7, "purchase", "RBC"],
  ["Cineplex", "Entertainment", 15, 48, 1, "purchase", "MBNA"],
  ["Canadian Tire", "Auto Maintenance", 20, 260, 0.6, "purchase", "PC Financial"],
  ["Hair Salon Kits", "Personal Care", 45, 85, 0.5, "purchase", "RBC"],
  // RBC's withdrawal alert names no payee: these rows arrive without a merchant, as real ones do.
  [null, null, 40, 200, 1.5, "withdrawal", "RBC"],
];
// Income arrives as Interac e-Transfers (the alerts the banks send for money coming in).
const DEPOSITS = [
  ["Northwind Consulting", 2400, 2400, 2, "RBC"],
  ["Riley Porter", 40, 250, 1, "Simplii"],
  ["Sam Whittaker", 20, 120, 0.7, "RBC"],
];
const CARDS = { RBC: "5678", CIBC: "3345", MBNA: "1234", "PC Financial": "8804", Simplii: "0000" };

/** The household's merchant rules (what a person teaches once): every merchant with a category. */
export const DEMO_OVERRIDES = MERCHANTS.filter(([company]) => company).map(([company, category]) => [
  company,
  category,
]);
DEMO_OVERRIDES.push(...DEPOSITS.map(([company]) => [company.toUpperCase(), "Income"]));

const local = (d) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: TZ,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      weekday: "short",
      hourCycle: "h23",
      timeZoneName: "longOffset",
    })
      .formatToParts(d)
      .map((x) => [x.type, x.value]),
  );
  const off = /GMT([+-])(\d{2}):(\d{2})/.exec(p.timeZoneName);
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour),
    minute: Number(p.minute),
    weekday: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(p.weekday),
    offset: off ? (off[1] === "-" ? -1 : 1) * (Number(off[2]) * 60 + Number(off[3])) : 0,
  };
};

/**
 * The household's money events, oldest first: { at (Date), institution, type, company, category,
 * cents, card, ref, id }. `today` is a Date; months counts back from today's month (inclusive).
 */
export function buildDemoEvents({ seed = 20261121, today = new Date(), months = 8 } = {}) {
  const rand = prng(seed);
  const events = [];
  const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (months - 1), 1, 12));
  const add = (company, category, amount, type, institution, at) => {
    const ref = Array.from(
      { length: 12 },
      () => "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789"[Math.floor(rand() * 54)],
    ).join("");
    events.push({
      at,
      institution,
      type,
      company,
      category,
      cents: Math.round(amount * 100),
      card: CARDS[institution],
      ref,
    });
  };
  for (let m = 0; m < months; m++) {
    const monthStart = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + m, 1, 8));
    const next = new Date(Date.UTC(monthStart.getUTCFullYear(), monthStart.getUTCMonth() + 1, 1, 8));
    const end = Math.min(next.getTime(), today.getTime());
    const span = end - monthStart.getTime();
    if (span <= 0) continue;
    const when = () => new Date(monthStart.getTime() + Math.floor(rand() * span));
    const fixedDay = (day) =>
      new Date(Math.min(monthStart.getTime() + (day - 1) * 86400000 + 9 * 3600000, end - 60000));
    for (const [company, category, min, max, freq, type, inst] of MERCHANTS) {
      const fixed = min === max;
      let n = Math.floor(freq * (0.7 + rand() * 0.6) * 1.55) + (rand() < freq % 1 ? 1 : 0);
      if (fixed) n = 1;
      for (let i = 0; i < n; i++) {
        const amount = fixed ? min : min + rand() * (max - min);
        add(
          company,
          category,
          amount,
          type,
          inst,
          fixed ? fixedDay(3 + ((company ?? "").length % 20)) : when(),
        );
      }
    }
    for (const [company, min, max, freq, inst] of DEPOSITS) {
      const n = Math.floor(freq) + (rand() < freq % 1 ? 1 : 0);
      for (let i = 0; i < n; i++)
        add(
          company,
          "Income",
          min + rand() * (max - min),
          "e-transfer",
          inst,
          i === 0 ? fixedDay(15) : when(),
        );
    }
  }
  events.sort((a, b) => a.at - b.at);
  events.forEach((e, i) => {
    e.id = `${seed.toString(36)}-${i.toString(36)}`;
  });
  return events;
}

/** The raw alert emails of the household, oldest first: { raw, at (when the bank sent it) }. */
export function buildDemoEmails(opts = {}) {
  return buildDemoEvents(opts).map((e) => ({
    raw: alertEmail(e, local(e.at), { recipient: DEMO_RECIPIENT, name: DEMO_NAME }),
    at: e.at,
  }));
}

/**
 * What the demo leaves for a person to do, so every loop shows: two RBC purchases printed in US
 * dollars (they wait in Needs review: another currency than the journal's), and an alert from a
 * bank no reader knows yet (quarantined, to teach). A few days before `today`, in its month.
 */
export function buildDemoChores({ today = new Date() } = {}) {
  const day = Math.max(1, Math.min(3, today.getUTCDate() - 1));
  const at = (hours) => new Date(today.getTime() - day * 86400000 + hours * 3600000);
  const foreign = [
    ["Pike Place Market", 4512, 1],
    ["Seattle Center Parking", 1800, 2],
  ].map(([company, cents, hours], i) => {
    const e = {
      at: at(hours),
      institution: "RBC",
      type: "purchase",
      company,
      cents,
      card: CARDS.RBC,
      id: `chore-${i}`,
    };
    const usd = `USD ${Math.floor(cents / 100)}.${pad2(cents % 100)}`;
    const raw = alertEmail(e, local(e.at), { recipient: DEMO_RECIPIENT, name: DEMO_NAME }).replace(
      /^Subject: .*$/m,
      `Subject: Purchase Alert: ${usd} at ${company}`,
    );
    return { raw, at: e.at };
  });
  const when = at(3);
  const p = local(when);
  const unknown = [
    "From: Tangerine <alerts@tangerine.example>",
    `To: ${DEMO_RECIPIENT}`,
    "Subject: Transaction alert",
    `Date: ${when.toUTCString().replace("GMT", "+0000")}`,
    "Message-ID: <demo-chore-unknown@finance-journal.example>",
    "MIME-Version: 1.0",
    'Content-Type: text/plain; charset="utf-8"',
    "",
    `Hi ${DEMO_NAME},`,
    "",
    `A purchase of $23.45 at CORNER BAKERY was charged to your Money-Back Credit Card ending in 4321 on ${p.year}-${pad2(p.month)}-${pad2(p.day)}.`,
    "",
    "If you don't recognize this transaction, call us right away.",
    "",
  ].join("\r\n");
  return { review: foreign, unknownBank: { raw: unknown, at: when } };
}

/**
 * The MBNA card's statement of the last whole month (OFX 2, as the bank's web export): every row
 * the alerts told of, plus two the alerts missed (an annual fee and a purchase whose alert never
 * came). Null when the demo holds no whole month.
 */
export function buildDemoStatement(opts = {}) {
  const today = opts.today ?? new Date();
  const events = buildDemoEvents(opts);
  // monthsBack 2: the month before, which the demo leaves half reviewed.
  const back = opts.monthsBack ?? 1;
  const lo = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 1));
  const ym = `${lo.getUTCFullYear()}${pad2(lo.getUTCMonth() + 1)}`;
  const ymd = (p) => `${p.year}${pad2(p.month)}${pad2(p.day)}`;
  const rows = events
    .filter((e) => e.institution === "MBNA")
    .map((e) => ({ date: ymd(local(e.at)), cents: -e.cents, name: e.company.toUpperCase() }))
    .filter((r) => r.date.startsWith(ym));
  if (rows.length === 0) return null;
  rows.push({ date: `${ym}12`, cents: -2314, name: "LOCAL BAKERY VANCOUVER BC" });
  rows.push({ date: `${ym}20`, cents: -12000, name: "ANNUAL FEE" });
  rows.sort((a, b) => a.date.localeCompare(b.date));
  const last = new Date(Date.UTC(lo.getUTCFullYear(), lo.getUTCMonth() + 1, 0)).getUTCDate();
  const balance = rows.reduce((n, r) => n + r.cents, 0);
  const amt = (c) => `${c < 0 ? "-" : ""}${Math.floor(Math.abs(c) / 100)}.${pad2(Math.abs(c) % 100)}`;
  const trn = rows.map(
    (r, i) =>
      `<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>${r.date}120000.000</DTPOSTED><TRNAMT>${amt(r.cents)}</TRNAMT><FITID>${ym}-${i + 1}</FITID><NAME>${r.name.replaceAll("&", "&amp;")}</NAME></STMTTRN>`,
  );
  const ofx = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS><DTSERVER>${ym}${last}120000.000</DTSERVER><LANGUAGE>ENG</LANGUAGE><FI><ORG>MBNA</ORG><FID>6101</FID></FI></SONRS></SIGNONMSGSRSV1>
<CREDITCARDMSGSRSV1><CCSTMTTRNRS><TRNUID>0</TRNUID><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS><CCSTMTRS><CURDEF>CAD</CURDEF><CCACCTFROM><ACCTID>5191000000001234</ACCTID></CCACCTFROM>
<BANKTRANLIST><DTSTART>${ym}01000000.000</DTSTART><DTEND>${ym}${last}000000.000</DTEND>
${trn.join("\n")}
</BANKTRANLIST><LEDGERBAL><BALAMT>${amt(balance)}</BALAMT><DTASOF>${ym}${last}</DTASOF></LEDGERBAL></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>
`;
  return { filename: `mbna-${ym}.ofx`, text: ofx, rows: rows.length };
}
const pad2 = (n) => String(n).padStart(2, "0");

export const DEMO_BUDGET = {
  spending_ceiling: 60000,
  categories: {
    Groceries: { target: 12000, input_mode: "yearly", category_type: "variable" },
    "Restaurant/Dining": { target: 4200, input_mode: "monthly", category_type: "variable" },
    "Coffee & Cafes": { target: 1500, input_mode: "yearly", category_type: "variable" },
    Gasoline: { target: 3600, input_mode: "yearly", category_type: "variable" },
    Subscriptions: { target: 420, input_mode: "yearly", category_type: "fixed" },
    Utilities: { target: 1300, input_mode: "yearly", category_type: "fixed" },
    "Home Goods": { target: 2400, input_mode: "yearly", category_type: "lumpy" },
  },
};

/** The display groups of the demo budget. */
export const DEMO_GROUPS = {
  groups: [
    { name: "Essentials", categories: ["Groceries", "Utilities", "Gasoline"] },
    { name: "Fun", categories: ["Restaurant/Dining", "Coffee & Cafes", "Subscriptions"] },
  ],
};
