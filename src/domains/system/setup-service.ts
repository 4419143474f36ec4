/**
 * First run: what an empty journal shows (how alerts get in, password, demo data) and the demo
 * household (./demo-household.ts), which only a request from this machine may add, and only to an
 * empty journal.
 */
import { getDb } from "../../db";
import { isDemo } from "../../env";
import type { ServiceCtx } from "../../lib/context";
import { ApiError, conflict } from "../../lib/errors";
import { DEMO_OVERRIDES, DEMO_RECIPIENT } from "../../../scripts/lib/demo-data.mjs";
import { seedDemoHousehold } from "./demo-household";
import type { DemoDataResult, SetupStatus } from "./setup-schemas";
import { countTransactions, hasAnyTransaction, readSetupRows } from "./setup-queries";

export async function getSetupStatus(ctx: ServiceCtx, local: boolean): Promise<SetupStatus> {
  const db = getDb(ctx.env.DB);
  const { any, passwordSet, recipients, heartbeat } = await readSetupRows(db, DEMO_RECIPIENT);
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
      backlog: configured ? (heartbeat?.backlog ?? null) : null,
    },
  };
}

export async function seedDemoData(
  ctx: ServiceCtx,
  { local, today, seed, months }: { local: boolean; today?: string; seed?: number; months?: number },
): Promise<DemoDataResult> {
  if (!local) throw new ApiError(403, "Demo data can be added only from this machine (a loopback request)");
  const db = getDb(ctx.env.DB);
  if (await hasAnyTransaction(db))
    throw conflict("The journal already has transactions: demo data is for a new one");
  // A given day stands at 20:00 UTC (the evening in North America), as `npm run seed:demo --today` did.
  const at = today ? new Date(`${today}T20:00:00Z`) : ctx.clock();
  const out = await seedDemoHousehold(ctx, { today: at, seed, months });
  const transactions = await countTransactions(db);
  // Each step journaled its own write in its batch; this entry sums the seed up. It has no write
  // of its own to ride in: the door writes it before it answers.
  ctx.journal({ resourceId: "demo-data", summary: `added ${transactions} demo transactions` });
  return {
    transactions,
    emails: out.emails,
    quarantined: out.outcomes.quarantined,
    statement_imported: out.statement_imported,
    receipts: out.receipts,
    overrides: DEMO_OVERRIDES.length,
    budget_year: out.budget_year,
    recipient: DEMO_RECIPIENT,
  };
}
