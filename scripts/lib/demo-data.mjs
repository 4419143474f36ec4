// A believable demo household, generated from a fixed seed: ~8 months of alerts over five
// institutions, every transaction type, a few deposits, overrides and a budget.
import { createHash } from "node:crypto";
import { prng } from "./prng.mjs";

const TZ = "America/Los_Angeles";
export const DEMO_RECIPIENT = "demo@finance-journal.example";

export { prng };

// [company, category, min, max, per-month frequency, type, institution]
const MERCHANTS = [
  ["Safeway #1432", "groceries", 35, 180, 6, "purchase", "RBC"],
  ["Whole Foods Market", "groceries", 20, 140, 3, "purchase", "CIBC"],
  ["Costco Wholesale", "groceries", 90, 320, 2, "purchase", "RBC"],
  ["Blue Bottle Coffee", "coffee & cafes", 4.5, 14, 9, "purchase", "MBNA"],
  ["Starbucks #0921", "coffee & cafes", 4, 11, 5, "purchase", "PC Financial"],
  ["Chevron 0091", "gasoline", 38, 82, 4, "purchase", "CIBC"],
  ["Shell Canada", "gasoline", 30, 75, 2, "purchase", "MBNA"],
  ["Uber Trip", "rideshare & taxi", 9, 42, 3, "purchase", "MBNA"],
  ["The Keg Steakhouse", "restaurant/dining", 60, 190, 1, "purchase", "RBC"],
  ["Pho Hoa", "restaurant/dining", 18, 45, 3, "purchase", "CIBC"],
  ["DoorDash", "restaurant/dining", 22, 65, 3, "purchase", "MBNA"],
  ["Amazon.ca", "home goods", 12, 160, 4, "purchase", "PC Financial"],
  ["IKEA Coquitlam", "home goods", 40, 400, 0.4, "purchase", "RBC"],
  ["Shoppers Drug Mart", "health care", 8, 70, 2, "purchase", "PC Financial"],
  ["Goodlife Fitness", "fitness", 54.99, 54.99, 1, "preauth", "CIBC"],
  ["Netflix.com", "subscriptions", 20.99, 20.99, 1, "purchase", "MBNA"],
  ["Spotify P2A8F", "subscriptions", 11.99, 11.99, 1, "purchase", "MBNA"],
  ["Telus Mobility", "phone", 85, 85, 1, "preauth", "CIBC"],
  ["Shaw Internet", "internet", 95, 95, 1, "preauth", "CIBC"],
  ["BC Hydro", "utilities", 60, 140, 1, "preauth", "CIBC"],
  ["Intact Insurance", "insurance", 142.5, 142.5, 1, "preauth", "CIBC"],
  ["Compass Card", "public transit", 20, 50, 2, "purchase", "RBC"],
  ["Petsmart", "pets", 25, 90, 1, "purchase", "PC Financial"],
  ["Indigo Books", "hobbies", 15, 60, 0.7, "purchase", "RBC"],
  ["Cineplex", "entertainment", 15, 48, 1, "purchase", "MBNA"],
  ["Canadian Tire", "auto maintenance", 20, 260, 0.6, "purchase", "PC Financial"],
  ["Hair Salon Kits", "personal care", 45, 85, 0.5, "purchase", "RBC"],
  ["ATM WITHDRAWAL", "miscellaneous", 40, 200, 1.5, "withdrawal", "RBC"],
];
const DEPOSITS = [
  ["Northwind Consulting", 2400, 2400, 2, "deposit", "RBC"],
  ["Riley Porter", 40, 250, 1, "e-transfer", "Simplii"],
  ["Sam Whittaker", 20, 120, 0.7, "e-transfer", "RBC"],
];

const parts = (d) =>
  Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: TZ,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );

const sha = (s) => createHash("sha256").update(s).digest("hex");
const sq = (v) =>
  v === null || v === undefined
    ? "NULL"
    : typeof v === "number"
      ? String(v)
      : `'${String(v).replaceAll("'", "''")}'`;

/** Builds the rows. `today` is a Date; months counts back from today's month (inclusive). */
export function buildDemo({ seed = 20261121, today = new Date(), months = 8 } = {}) {
  const rand = prng(seed);
  const rows = [];
  const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (months - 1), 1, 12));
  const add = (company, category, amount, type, institution, at) => {
    const p = parts(at);
    const local = `${p.year}.${p.month}.${p.day}_${p.hour}.${p.minute}`;
    const date = `${p.month}/${p.day}/${p.year} ${p.hour}:${p.minute} ${p.timeZoneName}`;
    const hash = sha([DEMO_RECIPIENT, institution, amount.toFixed(2), company, date, type].join("|"));
    const file = `${local}_${hash.slice(0, 12)}.eml`;
    rows.push({
      ForwardedTo: DEMO_RECIPIENT,
      DateFileName: file,
      TransactionHash: hash,
      UserId: "default",
      Institution: institution,
      // Stored in integer cents (migration 0007); the API speaks decimals.
      Amount: Math.round(amount * 100),
      Company: company,
      TransactionType: type,
      Category: category,
      Name: "Alex",
      Date: date,
      FileName: `emails/demo/${file}`,
      FromEmail: `alerts@${institution.toLowerCase().replaceAll(" ", "")}.example`,
      ToEmail: DEMO_RECIPIENT,
      Subject: `${institution} transaction alert`,
      Body: `A ${type} of $${amount.toFixed(2)} at ${company}.`,
      CategoryAudit: JSON.stringify({
        source: "override",
        matched_rule: company,
        confidence: 1,
        schema_version: 1,
      }),
      Ignored: rand() < 0.01 ? 1 : 0,
      CreatedAt: at.toISOString(),
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
        add(company, category, amount, type, inst, fixed ? fixedDay(3 + (company.length % 20)) : when());
      }
    }
    for (const [company, min, max, freq, type, inst] of DEPOSITS) {
      const n = Math.floor(freq) + (rand() < freq % 1 ? 1 : 0);
      for (let i = 0; i < n; i++)
        add(company, "income", min + rand() * (max - min), type, inst, i === 0 ? fixedDay(15) : when());
    }
  }
  return rows;
}

export const DEMO_OVERRIDES = [
  ["Safeway", "groceries"],
  ["Blue Bottle Coffee", "coffee & cafes"],
  ["Chevron", "gasoline"],
  ["Netflix.com", "subscriptions"],
  ["Uber Trip", "rideshare & taxi"],
  ["Amazon.ca", "home goods"],
];

export const DEMO_BUDGET = {
  spending_ceiling: 60000,
  categories: {
    groceries: { target: 12000, input_mode: "yearly", category_type: "variable" },
    "restaurant/dining": { target: 4200, input_mode: "monthly", category_type: "variable" },
    "coffee & cafes": { target: 1500, input_mode: "yearly", category_type: "variable" },
    gasoline: { target: 3600, input_mode: "yearly", category_type: "variable" },
    subscriptions: { target: 420, input_mode: "yearly", category_type: "fixed" },
    utilities: { target: 1300, input_mode: "yearly", category_type: "fixed" },
    "home goods": { target: 2400, input_mode: "yearly", category_type: "lumpy" },
  },
};

/** The whole demo as SQL statements (idempotent: clears demo rows first). */
export function demoSql(opts) {
  const rows = buildDemo(opts);
  const now = (opts?.today ?? new Date()).toISOString();
  const cols = Object.keys(rows[0]);
  const out = [`DELETE FROM transactions WHERE ForwardedTo = ${sq(DEMO_RECIPIENT)};`];
  for (let i = 0; i < rows.length; i += 50) {
    const chunk = rows.slice(i, i + 50).map((r) => `(${cols.map((c) => sq(r[c])).join(", ")})`);
    out.push(`INSERT OR REPLACE INTO transactions (${cols.join(", ")}) VALUES\n${chunk.join(",\n")};`);
  }
  for (const [company, category] of DEMO_OVERRIDES) {
    out.push(
      `INSERT OR REPLACE INTO overrides (company, category, created_at, updated_at) VALUES (${sq(company)}, ${sq(category)}, ${sq(now)}, ${sq(now)});`,
    );
  }
  const year = (opts?.today ?? new Date()).getUTCFullYear();
  // The stored targets document holds cents, marked as such (see migration 0007).
  const targets = {
    money: "cents",
    spending_ceiling: Math.round(DEMO_BUDGET.spending_ceiling * 100),
    categories: Object.fromEntries(
      Object.entries(DEMO_BUDGET.categories).map(([k, v]) => [
        k,
        { ...v, target: Math.round(v.target * 100), monthly_amount: Math.round((v.target / 12) * 100) },
      ]),
    ),
  };
  out.push(
    `INSERT OR REPLACE INTO budget_config (user_id, year, kind, data, version, updated_at) VALUES ('default', ${year}, 'targets', ${sq(JSON.stringify(targets))}, 1, ${sq(now)});`,
  );
  out.push(
    `INSERT OR REPLACE INTO budget_config (user_id, year, kind, data, version, updated_at) VALUES ('default', ${year}, 'groups', ${sq(
      JSON.stringify({
        groups: [
          { name: "Essentials", categories: ["groceries", "utilities", "gasoline"] },
          { name: "Fun", categories: ["restaurant/dining", "coffee & cafes", "subscriptions"] },
        ],
      }),
    )}, 1, ${sq(now)});`,
  );
  out.push(
    `INSERT OR REPLACE INTO user_mappings (ForwardedTo, UserId) VALUES (${sq(DEMO_RECIPIENT)}, 'default');`,
  );
  return { sql: out.join("\n"), count: rows.length };
}
