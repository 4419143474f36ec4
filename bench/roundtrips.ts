/**
 * D1 round trips per request (issue 24's measured outcome). Deployed, each trip to D1 costs tens of
 * milliseconds, so this is the latency that local timings hide. A round trip is one statement run
 * or one batch (bench/lib/d1-count.ts). Targets: every read route ≤ 2 (auth + data), an alert email
 * from the Email Routing, R2 or IMAP door to its row ≤ 3, a 120-row statement import ≤ 4.
 *   npm run bench:roundtrips          (TRIPS=1 also prints every trip's SQL)
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { expect, it } from "vitest";
import { createApp } from "../src/app";
import type { Env } from "../src/env";
import { imapIngest } from "../src/ingest";
import { routeEmail } from "../src/ingest/sources/email-routing";
import { handleInboxObject } from "../src/ingest/sources/r2-event";
import { fixedClock } from "../src/lib/clock";
import { logNotifier } from "../src/notify";
import { login, sessionCookie, setPassword } from "../test/helpers/auth";
import { call } from "../test/helpers/http";
import { seedTx } from "../test/helpers/seed";
import { buildMime } from "../test/fixtures/emails/builders";
import { countingD1, describeTrips, tally, type Trip } from "./lib/d1-count";

const NOW = "2025-07-02T12:00:00.000Z";
const verbose = Boolean((env as unknown as { TRIPS?: string }).TRIPS);

interface Row {
  name: string;
  target: number;
  trips: Trip[];
}
const rows: Row[] = [];

function record(name: string, target: number, trips: Trip[]) {
  rows.push({ name, target, trips: [...trips] });
}

/** The isolate's env: one object for every request, as a warm Worker isolate sees it. */
const isolates = new WeakMap<object, Env>();
const envOf = (counter: ReturnType<typeof countingD1>) => {
  let e = isolates.get(counter);
  if (!e) {
    e = { ...env, DB: counter.db } as Env;
    isolates.set(counter, e);
  }
  return e;
};

/** One request through the app with the counting binding; trips after the response are background. */
async function request(
  counter: ReturnType<typeof countingD1>,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: BodyInit } = {},
) {
  counter.reset();
  const app = createApp({ clock: fixedClock(NOW) });
  const ctx = createExecutionContext();
  const e = envOf(counter);
  const res = await app.fetch(new Request(`http://localhost${path}`, init), e, ctx);
  const text = await res.text();
  counter.settle();
  await waitOnExecutionContext(ctx);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

function ofx(n: number): string {
  const tx = Array.from({ length: n }, (_, i) => {
    const day = String(1 + (i % 28)).padStart(2, "0");
    const amt = (-(((i * 37) % 9000) + 100) / 100).toFixed(2);
    return `<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>202506${day}120000.000</DTPOSTED><TRNAMT>${amt}</TRNAMT><FITID>bench-${i}</FITID><NAME>SHOP ${i % 40}</NAME></STMTTRN>`;
  }).join("\n");
  return `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><TRNUID>0</TRNUID><CCSTMTRS><CURDEF>CAD</CURDEF>
<CCACCTFROM><ACCTID>4500123412341234</ACCTID></CCACCTFROM>
<BANKTRANLIST><DTSTART>20250601000000.000</DTSTART><DTEND>20250630000000.000</DTEND>
${tx}
</BANKTRANLIST></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>`;
}

it("D1 round trips per request", async () => {
  // A signed-in owner (session cookie, the dashboard's case) and a few months of rows.
  await setPassword(undefined, NOW);
  const cookie = sessionCookie(await login(undefined, NOW));
  const categories = ["groceries", "coffee & cafes", "restaurants", "transport"];
  let txId = "";
  for (let m = 1; m <= 6; m++) {
    for (let d = 1; d <= 20; d++) {
      const day = `2025-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
      txId = await seedTx({
        DateFileName: `${day}T10:${String(d).padStart(2, "0")}:00.000Z`,
        Amount: 5 + ((m * 31 + d * 7) % 90),
        Company: `Merchant ${(m + d) % 9}`,
        Category: categories[(m + d) % categories.length]!,
        TransactionType: d === 15 ? "deposit" : "purchase",
      });
    }
  }
  await call("/api/v1/budget/config?year=2025", {
    method: "PUT",
    headers: { cookie },
    body: { spending_ceiling: 5000, categories: {}, groups: [], targets_version: null, groups_version: null },
    now: NOW,
  });

  const counter = countingD1(env.DB);
  const reads: [string, string][] = [
    ["GET journal (month)", "/api/v1/journal?month=2025-06"],
    ["GET transactions (month)", "/api/v1/transactions?month=2025-06"],
    ["GET transactions/search", "/api/v1/transactions/search?from=2025-01&to=2025-06&category=groceries"],
    ["GET summary", "/api/v1/summary?month=2025-06"],
    ["GET budget/status", "/api/v1/budget/status?year=2025"],
    ["GET merchants/intelligence", "/api/v1/merchants/intelligence?month=2025-06&months=6"],
    ["GET income-statement", "/api/v1/income-statement?year=2025"],
    ["GET insights/context", "/api/v1/insights/context?month=2025-06"],
    ["GET transactions/{id}/detail", `/api/v1/transactions/${encodeURIComponent(txId)}/detail`],
  ];
  for (const [name, path] of reads) {
    // Twice: the second request sees the isolate's warm caches, as most requests do.
    await request(counter, path, { headers: { cookie } });
    await request(counter, path, { headers: { cookie } });
    // The merchants page and the insights context: no one waits (no budget: plain path, issue 40).
    record(name, /merchants|insights/.test(name) ? Number.NaN : 2, counter.trips);
  }

  // An alert email from the Email Routing door to its row (settings read, raw to R2, dedup, write…).
  const quiet = logNotifier();
  quiet.send = async () => {};
  const raw = buildMime({
    from: "CIBC <mailbox.noreply@cibc.com>",
    to: "me@example.com",
    date: "1 Jul 2025 09:30:00 -0700",
    messageId: "<bench-rt@cibc>",
    body: "Dear Carlos,\n You've recently made a purchase with your CIBC card ending in 2210 for $42.10 at FRESH MART #12.\nCIBC",
  });
  counter.reset();
  const out = await routeEmail(
    { raw: new Response(raw).body!, from: "mailbox.noreply@cibc.com", to: "me@example.com" },
    envOf(counter),
    { clock: fixedClock(NOW), ai: null, notify: quiet },
  );
  expect(out?.status).toBe("created");
  record("alert email, door to row", 3, counter.trips);
  // The same kind of alert through the R2 door (an object under the inbox prefix) and the IMAP poll.
  const another = (id: string, amount: string) =>
    buildMime({
      from: "CIBC <mailbox.noreply@cibc.com>",
      to: "me@example.com",
      date: "1 Jul 2025 10:30:00 -0700",
      messageId: `<bench-rt-${id}@cibc>`,
      body: `Dear Carlos,\n You've recently made a purchase with your CIBC card ending in 2210 for $${amount} at CORNER SHOP.\nCIBC`,
    });
  const r2Raw = another("r2", "11.20");
  await env.FILES.put("inbox/bench-rt.eml", r2Raw);
  counter.reset();
  const r2 = await handleInboxObject(
    envOf(counter),
    {
      account: "a",
      bucket: "b",
      action: "PutObject",
      object: { key: "inbox/bench-rt.eml", size: r2Raw.length },
    },
    { clock: fixedClock(NOW), ai: null, notify: quiet },
  );
  expect(r2?.status).toBe("created");
  record("alert email, R2 door to row", 3, counter.trips);
  counter.reset();
  const imap = await imapIngest(envOf(counter), fixedClock(NOW), { ai: null, notify: quiet })(
    another("imap", "12.30"),
    { uid: 1 },
  );
  expect(imap.status).toBe("created");
  record("alert email, IMAP poll to row", 3, counter.trips);

  // A 120-row statement: the upload (parse + reconcile) and the import.
  const fd = new FormData();
  fd.append("file", new File([ofx(120)], "card.ofx", { type: "application/x-ofx" }));
  const up = await request(counter, "/api/v1/statements/upload", {
    method: "POST",
    headers: { cookie, origin: "http://localhost" },
    body: fd,
  });
  record("POST statements/upload (120 rows)", 3, counter.trips);
  expect(up.transactions).toHaveLength(120);
  const imp = await request(counter, "/api/v1/statements/import", {
    method: "POST",
    headers: { cookie, origin: "http://localhost", "content-type": "application/json" },
    body: JSON.stringify({ statement_id: up.statement_id }),
  });
  expect(imp.imported).toBe(120);
  record("POST statements/import (120 rows)", 4, counter.trips);
  // Its undo (no budget: revert: read path only, issue 40): the stale check, then the restore's batch.
  const entry = await env.DB.prepare(
    "SELECT id FROM activity_log WHERE resource_kind = 'statement-import' ORDER BY ts DESC LIMIT 1",
  ).first<{ id: string }>();
  await request(counter, `/api/v1/activity/${entry!.id}/revert`, {
    method: "POST",
    headers: { cookie, origin: "http://localhost" },
  });
  record("POST activity revert (120-row import)", Number.NaN, counter.trips);

  const lines = ["request                                 trips  in sequence  background  target  verdict"];
  for (const r of rows) {
    const n = tally(r.trips);
    const verdict = Number.isNaN(r.target) ? "" : n.trips <= r.target ? "ok" : "OVER";
    const target = Number.isNaN(r.target) ? "-" : String(r.target);
    lines.push(
      `${r.name.padEnd(40)}${String(n.trips).padStart(5)}${String(n.inSequence).padStart(13)}${String(n.background).padStart(12)}${target.padStart(8)}  ${verdict}`,
    );
    if (verbose) lines.push(...describeTrips(r.trips).map((l) => `    ${l}`));
  }
  console.log(
    `D1 round trips per request (a batch is one; warm isolate, session cookie)\n${lines.join("\n")}`,
  );
});
