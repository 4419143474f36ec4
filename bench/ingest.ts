/**
 * Ingest rate: N synthetic alerts (default 10,000; BENCH_COUNT overrides) through ingestEmail
 * with AI off into local D1/R2, fixed seed. Prints emails/second and the outcome mix.
 *   npx vitest run -c bench/ingest.config.ts
 */
import { env } from "cloudflare:test";
import { getDb } from "../src/db";
import { expect, it } from "vitest";
import type { Env } from "../src/env";
import { ingestEmail } from "../src/ingest";
import { logNotifier } from "../src/notify";
import type { IngestDeps } from "../src/ingest/types";
import { fixedClock } from "../src/lib/clock";
import { prng as mulberry32 } from "../scripts/lib/prng.mjs";
import { buildMime } from "../test/fixtures/emails/builders";

const MERCHANTS = [
  "FRESH MART #12",
  "SAVE-ON-FOODS #2281",
  "BLUE BOTTLE COFFEE",
  "SHELL 0034",
  "COSTCO WHOLESALE",
  "BEST BUY #947",
  "UBER *TRIP",
  "CORNER BAKERY",
];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function synthetic(rand: () => number, i: number): Uint8Array {
  const amount = (Math.floor(rand() * 500_00) + 1) / 100;
  const money = `$${amount.toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
  const merchant = MERCHANTS[Math.floor(rand() * MERCHANTS.length)]!;
  const date = `${1 + Math.floor(rand() * 28)} ${MONTHS[Math.floor(rand() * 12)]} 2024 ${String(Math.floor(rand() * 24)).padStart(2, "0")}:${String(Math.floor(rand() * 60)).padStart(2, "0")}:00 -0700`;
  const kind = i % 10;
  if (kind < 6) {
    return buildMime({
      from: "CIBC <mailbox.noreply@cibc.com>",
      to: "bench@example.com",
      date,
      messageId: `<b${i}@bench>`,
      body: `Dear Carlos,\n You've recently made a purchase with your CIBC card ending in 2210 for ${money} at ${merchant}.\nCIBC`,
    });
  }
  if (kind < 9) {
    return buildMime({
      from: "MBNA <alerts@mbna.ca>",
      to: "bench@example.com",
      date,
      messageId: `<b${i}@bench>`,
      body: `MBNA Alert\n\nA purchase of ${money} from ${merchant} was made on your MBNA Mastercard card ending in 1234 on October 15, 2024.\n\nMBNA`,
    });
  }
  return buildMime({
    from: "RBC <notifications@rbc.com>",
    to: "bench@example.com",
    date,
    messageId: `<b${i}@bench>`,
    body: `Hello,\n A withdrawal of ${money} was debited from your bank account Daily Savings.\nRBC Royal Bank`,
  });
}

it("ingest rate with AI off", async () => {
  const e = env as unknown as Env & { BENCH_COUNT?: string };
  const n = Number(e.BENCH_COUNT ?? 10_000);
  const rand = mulberry32(20_241_015);
  const emails = Array.from({ length: n }, (_, i) => synthetic(rand, i));
  const quiet = logNotifier();
  quiet.send = async () => {};
  const deps: IngestDeps = {
    db: getDb(e.DB),
    files: e.FILES,
    clock: fixedClock("2024-12-31T12:00:00Z"),
    ai: null,
    notify: quiet,
    settings: {
      timezone: "America/Los_Angeles",
      userId: "bench",
      aiCategorizationEnabled: false,
      aiExtractionEnabled: false,
      blockedCompanies: ["UBER *TRIP"],
    },
    source: "bench",
  };
  const log = console.log;
  console.log = () => {}; // the per-email outcome line would dominate the timing
  const mix: Record<string, number> = {};
  const started = performance.now();
  try {
    for (const raw of emails) {
      const out = await ingestEmail(raw, deps);
      mix[out.status] = (mix[out.status] ?? 0) + 1;
    }
  } finally {
    console.log = log;
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = await e.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first<number>("n");
  console.log(
    `ingest bench: ${n} emails in ${seconds.toFixed(1)} s = ${(n / seconds).toFixed(0)} emails/s ` +
      `(AI off, local D1/R2, seed 20241015); outcomes ${JSON.stringify(mix)}; rows ${rows}`,
  );
  expect((mix.created ?? 0) + (mix.duplicate ?? 0)).toBe(n);
});
