// 100,000 synthetic transactions over 10 years (fixed seed), written as SQL for wrangler d1 execute.
import { writeFileSync } from "node:fs";
import { prng } from "../../scripts/lib/demo-data.mjs";

const CATS = [
  "groceries",
  "restaurant/dining",
  "gasoline",
  "coffee & cafes",
  "utilities",
  "subscriptions",
  "home goods",
  "travel",
  "health care",
  "entertainment",
];
const TYPES = ["purchase", "purchase", "purchase", "purchase", "withdrawal", "preauth", "e-transfer"];
const INST = ["RBC", "CIBC", "MBNA", "Simplii", "PC Financial"];

export function writeLargeSeed(file, { rows = 100_000, seed = 42, startYear = 2016, years = 10 } = {}) {
  const rand = prng(seed);
  const merchants = Array.from(
    { length: 400 },
    (_, i) => `Merchant ${i} ${["Store", "Cafe", "Market", "Online"][i % 4]}`,
  );
  const out = [];
  const span = years * 365 * 86400000;
  const t0 = Date.UTC(startYear, 0, 1);
  let batch = [];
  const flush = () => {
    if (batch.length)
      out.push(
        `INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, UserId, Institution, Amount, Company, TransactionType, Category, Date, Ignored, DeletedAt, Comment, CreatedAt) VALUES\n${batch.join(",\n")};`,
      );
    batch = [];
  };
  for (let i = 0; i < rows; i++) {
    const d = new Date(t0 + Math.floor(rand() * span));
    const p = (n) => String(n).padStart(2, "0");
    const dfn = `${d.getUTCFullYear()}.${p(d.getUTCMonth() + 1)}.${p(d.getUTCDate())}_${p(d.getUTCHours())}.${p(d.getUTCMinutes())}_${i.toString(16).padStart(8, "0")}.eml`;
    const m = merchants[Math.floor(rand() * merchants.length)];
    // Integer cents, as stored since migration 0007.
    const amount = Math.round((3 + rand() * rand() * 400) * 100);
    const type = TYPES[Math.floor(rand() * TYPES.length)];
    const cat = type === "e-transfer" ? "income" : CATS[Math.floor(rand() * CATS.length)];
    const ignored = rand() < 0.02 ? 1 : 0;
    const deleted = rand() < 0.01 ? "'2020-01-01T00:00:00Z'" : "NULL";
    const comment = rand() < 0.03 ? "'note'" : "NULL";
    batch.push(
      `('bench@example.com', '${dfn}', 'h${i}', 'default', '${INST[i % INST.length]}', ${amount}, '${m}', '${type}', '${cat}', '${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} 10:00 PST', ${ignored}, ${deleted}, ${comment}, '${d.toISOString()}')`,
    );
    if (batch.length === 100) flush();
  }
  flush();
  writeFileSync(file, out.join("\n"));
  return rows;
}
