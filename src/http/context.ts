import type { Context } from "hono";
import { getDb } from "../db";
import type { Ledger } from "../domains/activity/journal";
import type { Env } from "../env";
import type { Clock } from "../lib/clock";
import type { Principal, ServiceCtx, Statements } from "../lib/context";

export type { Principal, ServiceCtx } from "../lib/context";

interface AppVariables {
  clock: Clock;
  principal: Principal;
  /** This request's ledger (set by the activity middleware on journaled requests). */
  ledger?: Ledger;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
export type AppContext = Context<AppEnv>;

/** Requests the ledger does not journal (reads, sign-in): entries are dropped, batches run as is. */
function unjournaled(c: AppContext): Pick<ServiceCtx, "journal" | "batch"> {
  return {
    journal: () => "",
    batch: <T extends Statements>(stmts: T) => getDb(c.env.DB).batch(stmts),
  };
}

/** The service context of a request: its ledger is the request's (one per request, shared). */
export function serviceCtx(c: AppContext): ServiceCtx {
  let waitUntil: (p: Promise<unknown>) => void;
  try {
    const ec = c.executionCtx;
    waitUntil = (p) => ec.waitUntil(p);
  } catch {
    waitUntil = (p) => void p.catch(() => undefined);
  }
  const ledger = c.get("ledger") ?? unjournaled(c);
  return {
    env: c.env,
    clock: c.get("clock"),
    principal: c.get("principal"),
    waitUntil,
    journal: ledger.journal,
    batch: ledger.batch,
  };
}
