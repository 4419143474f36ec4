/**
 * The demo household through the real doors: the rules and budget a person sets up, then every
 * generated bank alert through ingestEmail (the pipeline every door calls: parse, categorize,
 * dedup, context, quarantine) at the instant the bank sent it, then the card statement through
 * upload → reconcile → import, then a few store receipts through the attachments upload door,
 * linked to their purchases. No transaction row is written by hand, so the demo rows carry what
 * real rows carry. No model is asked (the rules categorize) and nothing is notified.
 */
import {
  buildDemoChores,
  buildDemoEmails,
  buildDemoStatement,
  DEMO_BUDGET,
  DEMO_GROUPS,
  DEMO_OVERRIDES,
  DEMO_RECIPIENT,
} from "../../../scripts/lib/demo-data.mjs";
import { receiptPdf } from "../../../scripts/lib/demo-receipts.mjs";
import { invalidateResolverCache } from "../../categorize/resolver";
import { getDb } from "../../db";
import { ingestEmail } from "../../ingest";
import { loadIngestSettings } from "../../ingest/settings";
import type { IngestDeps, IngestOutcome, TransactionRecord } from "../../ingest/types";
import { fixedClock } from "../../lib/clock";
import type { ServiceCtx } from "../../lib/context";
import { toCents } from "../../lib/money";
import { encodeTxId } from "../../lib/txid";
import { checkUpload } from "../attachments/files";
import { type GroupsDoc, parseGroups, parseTargets, type TargetsDoc } from "../budget/rules";
import { upload } from "../attachments/service";
import { executeImport } from "../statements/import";
import type { RowEdit } from "../statements/schemas";
import { applyEdits, loadStatement, uploadStatement } from "../statements/service";
import { hasBudget, writeDemo } from "./setup-queries";

export interface DemoHouseholdResult {
  emails: number;
  outcomes: Record<IngestOutcome["status"], number>;
  statement_imported: number;
  receipts: number;
  budget_year: number | null;
}

/** The purchases that get a receipt (the latest of each), with what the receipt lists. */
const RECEIPTS: [company: string, items: string[]][] = [
  ["Costco Wholesale", ["KS PAPER TOWEL", "ROTISSERIE CHICKEN", "ORGANIC EGGS 24"]],
  ["IKEA Coquitlam", ["KALLAX SHELF", "LED BULB 3PK"]],
  ["Shoppers Drug Mart", ["PRESCRIPTION RX", "VITAMIN D 1000IU"]],
];

const silent = { name: "demo", send: async () => {} };
/** A bank's alert reaches the journal a little after the bank sends it. */
const DELIVERY_MS = 20_000;

export async function seedDemoHousehold(
  ctx: ServiceCtx,
  { today, seed, months }: { today: Date; seed?: number; months?: number },
): Promise<DemoHouseholdResult> {
  const db = getDb(ctx.env.DB);
  const now = today.toISOString();
  const year = today.getUTCFullYear();
  const writeBudget = !(await hasBudget(db, year));
  await writeDemo(db, {
    rows: [],
    overrides: DEMO_OVERRIDES.map(([company, category]) => ({ company, category })),
    recipient: DEMO_RECIPIENT,
    userId: ctx.env.DEFAULT_USER_ID?.trim() || "default",
    budget: writeBudget ? demoBudget(year, now) : [],
    now,
  });
  invalidateResolverCache();

  const emails = buildDemoEmails({ seed, today, months });
  const base: Omit<IngestDeps, "clock"> = {
    db: getDb(ctx.env.DB),
    files: ctx.env.FILES,
    ai: null,
    notify: silent,
    settings: await loadIngestSettings(ctx.env),
    source: "demo",
  };
  const outcomes: DemoHouseholdResult["outcomes"] = { created: 0, duplicate: 0, quarantined: 0, ignored: 0 };
  // One lane per month, in order within it: what a row's context counts (its month's category total
  // and merchant visits) depends only on earlier rows of the same month, so the months can go at
  // once (about 6x faster than one by one) and the rows come out the same every time.
  const month = new Intl.DateTimeFormat("en-CA", {
    timeZone: base.settings.timezone,
    year: "numeric",
    month: "2-digit",
  });
  const lanes = new Map<string, typeof emails>();
  for (const e of emails) {
    const key = month.format(e.at);
    lanes.set(key, [...(lanes.get(key) ?? []), e]);
  }
  const created: TransactionRecord[] = [];
  await Promise.all(
    [...lanes.values()].map(async (lane) => {
      for (const e of lane) {
        const clock = fixedClock(new Date(e.at.getTime() + DELIVERY_MS).toISOString());
        const out = await ingestEmail(e.raw, { ...base, clock });
        outcomes[out.status]++;
        if (out.status === "created") created.push(out.tx);
      }
    }),
  );

  let imported = 0;
  const stmt = buildDemoStatement({ seed, today, months });
  if (stmt) {
    const at = { ...ctx, clock: fixedClock(now) };
    const up = await uploadStatement(at, {
      bytes: new TextEncoder().encode(stmt.text),
      filename: stmt.filename,
    });
    imported = (await executeImport(at, { statement_id: up.statement_id, actions: [] })).response.imported;
  }
  const receipts = await uploadReceipts({ ...ctx, clock: fixedClock(now) }, created);
  await leaveChores(ctx, { today, seed, months, base, outcomes });
  return {
    emails: emails.length,
    outcomes,
    statement_imported: imported,
    receipts,
    budget_year: writeBudget ? year : null,
  };
}

/**
 * What the demo leaves for a person, through the same doors: alerts printed in another currency
 * (Needs review), an alert from a bank no reader knows (quarantined, to teach), the month before's
 * statement uploaded and half reviewed, and one receipt not yet matched to its purchase.
 */
async function leaveChores(
  ctx: ServiceCtx,
  {
    today,
    seed,
    months,
    base,
    outcomes,
  }: {
    today: Date;
    seed?: number;
    months?: number;
    base: Omit<IngestDeps, "clock">;
    outcomes: DemoHouseholdResult["outcomes"];
  },
) {
  const chores = buildDemoChores({ today });
  for (const e of [...chores.review, chores.unknownBank]) {
    const clock = fixedClock(new Date(e.at.getTime() + DELIVERY_MS).toISOString());
    const out = await ingestEmail(e.raw, { ...base, clock });
    outcomes[out.status]++;
  }
  const at = { ...ctx, clock: fixedClock(today.toISOString()) };
  const stmt = buildDemoStatement({ seed, today, months, monthsBack: 2 });
  if (stmt) {
    const up = await uploadStatement(at, {
      bytes: new TextEncoder().encode(stmt.text),
      filename: stmt.filename,
    });
    const { rows } = await loadStatement(at, up.statement_id);
    // The first half confirmed as suggested; the rest wait.
    const half = rows.slice(0, Math.ceil(rows.length / 2));
    if (half.length)
      await applyEdits(at, {
        id: up.statement_id,
        edits: half.map((r) => ({ key: r.tx_index, edit: { action: r.action as RowEdit["action"] } })),
        summary: (edited) => `reviewed ${edited.length} statement rows`,
      });
  }
  const day = today.toISOString().slice(0, 10);
  const pdf = receiptPdf({
    merchant: "Whole Foods Market",
    day,
    cents: 4_218,
    items: ["ORGANIC BANANAS", "OAT MILK"],
  });
  await upload(
    at,
    checkUpload({
      bytes: pdf,
      name: `whole-foods-${day}.pdf`,
      type: "application/pdf",
      kind: "receipt",
      txId: null,
    }),
  );
}

/** Each receipt as a browser sends it (multipart, PDF), through the upload door, linked to its row. */
async function uploadReceipts(ctx: ServiceCtx, created: TransactionRecord[]): Promise<number> {
  let n = 0;
  for (const [company, items] of RECEIPTS) {
    const tx = created
      .filter((t) => t.Company?.toLowerCase() === company.toLowerCase())
      .sort((a, b) => b.DateFileName.localeCompare(a.DateFileName))[0];
    if (!tx) continue;
    const day = tx.DateFileName.slice(0, 10).replaceAll(".", "-");
    const pdf = receiptPdf({ merchant: company, day, cents: tx.Amount, items });
    const name = `${company.replace(/\W+/g, "-").toLowerCase()}-${day}.pdf`;
    const file = {
      bytes: pdf,
      name,
      type: "application/pdf",
      kind: "receipt",
      txId: encodeTxId(tx.ForwardedTo, tx.DateFileName),
    };
    await upload(ctx, checkUpload(file));
    n++;
  }
  return n;
}

/** The demo budget as stored: money in cents, marked so (migration 0007). */
function demoBudget(year: number, now: string) {
  const cents = toCents;
  const targets = parseTargets({
    money: "cents",
    spending_ceiling: cents(DEMO_BUDGET.spending_ceiling),
    categories: Object.fromEntries(
      Object.entries(DEMO_BUDGET.categories).map(([k, v]) => [
        k,
        { ...v, target: cents(v.target), monthly_amount: cents(v.target / 12) },
      ]),
    ),
  });
  const row = (kind: "targets" | "groups", data: TargetsDoc | GroupsDoc) => ({
    user_id: "default",
    year,
    kind,
    data,
    version: 1,
    updated_at: now,
  });
  return [row("targets", targets), row("groups", parseGroups(DEMO_GROUPS))];
}
