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
import type { Env } from "../../env";
import type { IngestDeps, IngestOutcome } from "../../ingest/types";
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
import { hasBudget, latestAlertRows, writeDemo } from "./setup-queries";

/** What a seed is drawn from: the demo's today (its fixed clock), the generator's seed, its months. */
export interface DemoParams {
  today: Date;
  seed?: number;
  months?: number;
}

export type DemoOutcomes = Record<IngestOutcome["status"], number>;

/** The purchases that get a receipt (the latest of each), with what the receipt lists. */
const RECEIPTS: [company: string, items: string[]][] = [
  ["Costco Wholesale", ["KS PAPER TOWEL", "ROTISSERIE CHICKEN", "ORGANIC EGGS 24"]],
  ["IKEA Coquitlam", ["KALLAX SHELF", "LED BULB 3PK"]],
  ["Shoppers Drug Mart", ["PRESCRIPTION RX", "VITAMIN D 1000IU"]],
];

const silent = { name: "demo", send: async () => {} };
/** A bank's alert reaches the journal a little after the bank sends it. */
const DELIVERY_MS = 20_000;

/** The rules, the recipient and (when the year has none) a budget, in one batch: the budget's year or null. */
export async function setUpDemo(ctx: ServiceCtx, today: Date): Promise<number | null> {
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
  return writeBudget ? year : null;
}

const ingestDeps = async (env: Env): Promise<Omit<IngestDeps, "clock">> => ({
  db: getDb(env.DB),
  files: env.FILES,
  ai: null,
  notify: silent,
  settings: await loadIngestSettings(env),
  source: "demo",
});

/**
 * The generated alerts in lanes, one per month, in order within each: what a row's context counts
 * (its month's category total and merchant visits) depends only on earlier rows of the same month,
 * so the months can go at once (about 6x faster than one by one) and the rows come out the same.
 */
function demoLanes(p: DemoParams, timezone: string) {
  const month = new Intl.DateTimeFormat("en-CA", { timeZone: timezone, year: "numeric", month: "2-digit" });
  const lanes = new Map<string, { raw: string; at: Date }[]>();
  const emails = buildDemoEmails(p);
  for (const e of emails) {
    const key = month.format(e.at);
    const lane = lanes.get(key);
    if (lane) lane.push(e);
    else lanes.set(key, [e]);
  }
  return { total: emails.length, lanes: [...lanes.values()] };
}

/** How many generated alerts the demo sends (what its progress counts to). */
export const demoAlertCount = (p: DemoParams) => buildDemoEmails(p).length;

/**
 * Step `step` of the alerts: the next `perStep` alerts, dealt round the month lanes one at a time
 * (each lane's share in its order), through ingestEmail at the instant the bank sent each. `done`:
 * alerts sent after this step; `more`: whether another step has alerts left.
 */
export async function ingestDemoAlerts(
  env: Env,
  p: DemoParams,
  { step, perStep }: { step: number; perStep: number },
): Promise<{ outcomes: DemoOutcomes; done: number; total: number; more: boolean }> {
  const base = await ingestDeps(env);
  const { total, lanes } = demoLanes(p, base.settings.timezone);
  const { from, to } = stepShares(
    lanes.map((l) => l.length),
    perStep,
    step,
  );
  const outcomes: DemoOutcomes = { created: 0, duplicate: 0, quarantined: 0, ignored: 0 };
  await Promise.all(
    lanes.map(async (lane, i) => {
      for (const e of lane.slice(from[i], to[i])) await deliver(base, e, outcomes);
    }),
  );
  const done = to.reduce((a, b) => a + b, 0);
  return { outcomes, done, total, more: done < total };
}

/** One alert through ingestEmail a little after the bank sent it, its outcome counted. */
async function deliver(
  base: Omit<IngestDeps, "clock">,
  e: { raw: string; at: Date },
  outcomes: DemoOutcomes,
) {
  const clock = fixedClock(new Date(e.at.getTime() + DELIVERY_MS).toISOString());
  outcomes[(await ingestEmail(e.raw, { ...base, clock })).status]++;
}

/** Where each lane stands before and after step `step`, `perStep` alerts a step dealt round the lanes. */
function stepShares(lengths: number[], perStep: number, step: number) {
  let from = lengths.map(() => 0);
  for (let s = 0; ; s++) {
    const to = [...from];
    let left = Math.max(1, perStep);
    while (left > 0 && to.some((t, i) => t < lengths[i]!))
      for (let i = 0; i < to.length && left > 0; i++)
        if (to[i]! < lengths[i]!) {
          to[i]!++;
          left--;
        }
    if (s >= step) return { from, to };
    from = to;
  }
}

/**
 * After the alerts: the card statement through upload → reconcile → import, a few store receipts
 * through the attachments upload door (linked to the latest alert row of their store), then what
 * is left for a person to do (leaveChores).
 */
export async function finishDemo(
  ctx: ServiceCtx,
  { params: p, outcomes }: { params: DemoParams; outcomes: DemoOutcomes },
): Promise<{ statement_imported: number; receipts: number }> {
  const at = { ...ctx, clock: fixedClock(p.today.toISOString()) };
  let imported = 0;
  const stmt = await uploadDemoStatement(at, p);
  if (stmt) imported = (await executeImport(at, { statement_id: stmt, actions: [] })).response.imported;
  const receipts = await uploadReceipts(at);
  await leaveChores(ctx, { ...p, base: await ingestDeps(ctx.env), outcomes });
  return { statement_imported: imported, receipts };
}

/**
 * What the demo leaves for a person, through the same doors: alerts printed in another currency
 * (Needs review), an alert from a bank no reader knows (quarantined, to teach), the month before's
 * statement uploaded and half reviewed, and one receipt not yet matched to its purchase.
 */
async function leaveChores(
  ctx: ServiceCtx,
  { today, base, outcomes, ...p }: DemoParams & { base: Omit<IngestDeps, "clock">; outcomes: DemoOutcomes },
) {
  const chores = buildDemoChores({ today });
  for (const e of [...chores.review, chores.unknownBank]) await deliver(base, e, outcomes);
  const at = { ...ctx, clock: fixedClock(today.toISOString()) };
  const stmt = await uploadDemoStatement(at, { ...p, today, monthsBack: 2 });
  if (stmt) {
    const { rows } = await loadStatement(at, stmt);
    // The first half confirmed as suggested; the rest wait.
    const half = rows.slice(0, Math.ceil(rows.length / 2));
    if (half.length)
      await applyEdits(at, {
        id: stmt,
        edits: half.map((r) => ({ key: r.tx_index, edit: { action: r.action as RowEdit["action"] } })),
        summary: (edited) => `reviewed ${edited.length} statement rows`,
      });
  }
  const day = today.toISOString().slice(0, 10);
  const items = ["ORGANIC BANANAS", "OAT MILK"];
  await uploadReceipt(
    at,
    { merchant: "Whole Foods Market", day, cents: 4_218, items },
    `whole-foods-${day}`,
    null,
  );
}

/** A generated card statement through the upload door: its id (null when the months hold none). */
async function uploadDemoStatement(at: ServiceCtx, p: Parameters<typeof buildDemoStatement>[0]) {
  const stmt = buildDemoStatement(p);
  if (!stmt) return null;
  const bytes = new TextEncoder().encode(stmt.text);
  return (await uploadStatement(at, { bytes, filename: stmt.filename })).statement_id;
}

/** A store receipt as a browser sends it (multipart, PDF) through the upload door. */
async function uploadReceipt(
  ctx: ServiceCtx,
  receipt: Parameters<typeof receiptPdf>[0],
  stem: string,
  txId: string | null,
) {
  const file = {
    bytes: receiptPdf(receipt),
    name: `${stem}.pdf`,
    type: "application/pdf",
    kind: "receipt",
    txId,
  };
  await upload(ctx, checkUpload(file));
}

/** Each receipt through the upload door, linked to its row. */
async function uploadReceipts(ctx: ServiceCtx): Promise<number> {
  const rows = await latestAlertRows(
    getDb(ctx.env.DB),
    RECEIPTS.map(([company]) => company),
  );
  let n = 0;
  for (const [i, [company, items]] of RECEIPTS.entries()) {
    const tx = rows[i];
    if (!tx || tx.Amount === null) continue;
    const day = tx.DateFileName.slice(0, 10).replaceAll(".", "-");
    const stem = `${company.replace(/\W+/g, "-").toLowerCase()}-${day}`;
    const txId = encodeTxId(tx.ForwardedTo, tx.DateFileName);
    await uploadReceipt(ctx, { merchant: company, day, cents: tx.Amount, items }, stem, txId);
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
