import type { Context } from "hono";
import type { Env } from "../env";
import type { Clock } from "../lib/clock";
import type { Principal, ServiceCtx } from "../lib/context";

export type { Principal, ServiceCtx } from "../lib/context";

export interface AppVariables {
  clock: Clock;
  principal: Principal;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
export type AppContext = Context<AppEnv>;

/** The service context of a request. */
export function serviceCtx(c: AppContext): ServiceCtx {
  let waitUntil: (p: Promise<unknown>) => void;
  try {
    const ec = c.executionCtx;
    waitUntil = (p) => ec.waitUntil(p);
  } catch {
    waitUntil = (p) => void p.catch(() => undefined);
  }
  return { env: c.env, clock: c.get("clock"), principal: c.get("principal"), waitUntil };
}
