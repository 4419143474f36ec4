import type { Context } from "hono";
import type { Env } from "../env";
import type { Clock } from "../lib/clock";

/** The principal a request runs as (issue: authentication). */
export interface Principal {
  kind: "token" | "session" | "tofu" | "dev-bypass" | "demo" | "system";
  id: string | null;
  label: string | null;
  scope: "read" | "read+write" | null;
}

export interface AppVariables {
  clock: Clock;
  principal: Principal;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
export type AppContext = Context<AppEnv>;

/** What service verbs receive instead of a Hono context. */
export interface ServiceCtx {
  env: Env;
  clock: Clock;
  principal: Principal;
  waitUntil: (p: Promise<unknown>) => void;
}

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
