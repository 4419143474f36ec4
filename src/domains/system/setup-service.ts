/**
 * First run: what an empty journal shows (how alerts get in, password, demo data) and the demo
 * household (./demo-steps.ts), which only a request from this machine may add, and only to an
 * empty journal.
 */
import { getDb } from "../../db";
import { isDemo } from "../../env";
import type { ServiceCtx } from "../../lib/context";
import { DEMO_RECIPIENT } from "../../../scripts/lib/demo-data.mjs";
import type { SetupStatus } from "./setup-schemas";
import { readSetupRows } from "./setup-queries";

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
