/** What service verbs receive: the bindings, the clock, the caller. No HTTP framework here. */
import type { Env } from "../env";
import type { Clock } from "./clock";

/** The principal a request (or a background duty) runs as. */
export interface Principal {
  kind: "token" | "oauth" | "session" | "tofu" | "dev-bypass" | "demo" | "system";
  id: string | null;
  label: string | null;
  scope: "read" | "read+write" | null;
}

/** What service verbs receive instead of a Hono context. */
export interface ServiceCtx {
  env: Env;
  clock: Clock;
  principal: Principal;
  waitUntil: (p: Promise<unknown>) => void;
}
