/**
 * First run: what an empty journal shows (how alerts get in, password, demo data) and the demo
 * household, which only a request from this machine may add, and only to an empty journal.
 */
import { getDb } from "../../db";
import { isDemo } from "../../env";
import type { ServiceCtx } from "../../lib/context";
import { ApiError, conflict } from "../../lib/errors";
import { isPasswordSet } from "../auth/state";
import { readHeartbeat } from "../health/queries";
import { buildDemo, DEMO_BUDGET, DEMO_OVERRIDES, DEMO_RECIPIENT } from "../../../scripts/lib/demo-data.mjs";
import type { DemoDataResult, SetupStatus } from "./setup-schemas";
import { hasAnyTransaction, hasBudget, knownRecipients, writeDemo } from "./setup-queries";

export async function getSetupStatus({
  ctx,
  local,
}: {
  ctx: ServiceCtx;
  local: boolean;
}): Promise<SetupStatus> {
  const db = getDb(ctx.env.DB);
  const [any, passwordSet, recipients, heartbeat] = await Promise.all([
    hasAnyTransaction(db),
    isPasswordSet(ctx.env.DB).catch(() => false),
    knownRecipients(db, DEMO_RECIPIENT),
    readHeartbeat(db),
  ]);
  const configured = Boolean(ctx.env.IMAP_HOST?.trim());
  return {
    empty: !any,
    password_set: passwordSet,
    local,
    demo_data_available: local && !any && !isDemo(ctx.env),
    email_routing: { forward_to: recipients },
    mailbox: {
      configured,
      address: configured ? ctx.env.IMAP_USER?.trim() || null : null,
      folder: configured ? ctx.env.IMAP_MAILBOX?.trim() || "INBOX" : null,
      last_poll: heartbeat?.last_poll_at ?? null,
      // Only the error's class (e.g. ImapAuthError), as health does: never host or server text.
      last_error: heartbeat?.last_error?.split(":")[0]?.trim() || null,
    },
  };
}

export async function seedDemoData({
  ctx,
  local,
}: {
  ctx: ServiceCtx;
  local: boolean;
}): Promise<DemoDataResult> {
  if (!local) throw new ApiError(403, "Demo data can be added only from this machine (a loopback request)");
  const db = getDb(ctx.env.DB);
  if (await hasAnyTransaction(db))
    throw conflict("The journal already has transactions: demo data is for a new one");
  const today = ctx.clock();
  const now = today.toISOString();
  const year = today.getUTCFullYear();
  const rows = buildDemo({ today }) as Parameters<typeof writeDemo>[1]["rows"];
  const writeBudget = !(await hasBudget(db, year));
  await writeDemo(db, {
    rows,
    overrides: DEMO_OVERRIDES.map(([company, category]) => ({ company, category })),
    recipient: DEMO_RECIPIENT,
    userId: ctx.env.DEFAULT_USER_ID?.trim() || "default",
    budget: writeBudget ? demoBudget(year, now) : [],
    now,
  });
  return {
    transactions: rows.length,
    overrides: DEMO_OVERRIDES.length,
    budget_year: writeBudget ? year : null,
    recipient: DEMO_RECIPIENT,
  };
}

/** The demo budget as stored: money in cents, marked so (migration 0007). */
function demoBudget(year: number, now: string) {
  const cents = (n: number) => Math.round(n * 100);
  const targets = {
    money: "cents",
    spending_ceiling: cents(DEMO_BUDGET.spending_ceiling),
    categories: Object.fromEntries(
      Object.entries(DEMO_BUDGET.categories).map(([k, v]) => [
        k,
        { ...v, target: cents(v.target), monthly_amount: cents(v.target / 12) },
      ]),
    ),
  };
  const groups = {
    groups: [
      { name: "Essentials", categories: ["groceries", "utilities", "gasoline"] },
      { name: "Fun", categories: ["restaurant/dining", "coffee & cafes", "subscriptions"] },
    ],
  };
  const row = (kind: "targets" | "groups", data: unknown) => ({
    user_id: "default",
    year,
    kind,
    data: JSON.stringify(data),
    version: 1,
    updated_at: now,
  });
  return [row("targets", targets), row("groups", groups)];
}
