import { env } from "cloudflare:test";
import type { TokenScope } from "../../src/domains/auth/rules";
import { issueToken } from "../../src/domains/auth/tokens";
import { jobCtx } from "../../src/domains/activity/journal";
import { type Clock, systemClock } from "../../src/lib/clock";
import type { ServiceCtx } from "../../src/lib/context";
import { type CallResult, call } from "./http";

export const PASSWORD = "correct horse battery";

/** Empties every auth and ledger table and the stored config (storage is shared within a file). */
export async function resetState(): Promise<void> {
  await env.DB.batch(
    ["auth_settings", "api_tokens", "activity_log", "app_config", "sessions", "login_throttle"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
}

/** Issues a token straight through the service (what the command line and the settings page do). */
export async function seedToken(scope: TokenScope = "read+write", label = `test-${scope}`) {
  return issueToken(plainCtx(), { label, scope });
}

/** A verb context for a test that calls a verb directly: no principal, nothing journaled. */
export const plainCtx = (clock: Clock = systemClock): ServiceCtx => ({
  ...jobCtx(env, clock, "test").ctx,
  journal: () => "",
});

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The `app_session=...` pair from a response's Set-Cookie, ready for a Cookie header. */
export function sessionCookie(res: CallResult): string {
  const line = res.headers.getSetCookie().find((c) => c.startsWith("app_session="));
  if (!line) throw new Error(`no app_session cookie in ${res.status} ${res.text}`);
  return line.split(";")[0]!;
}

export const withCookie = (cookie: string) => ({ cookie });

/** Sets the password (from TOFU) and returns the session cookie the caller received. */
export async function setPassword(password = PASSWORD, now?: string): Promise<string> {
  const res = await call("/api/v1/auth/set-password", { method: "POST", body: { password }, now });
  if (res.status !== 200) throw new Error(`set-password: ${res.status} ${res.text}`);
  return sessionCookie(res);
}

export async function login(password = PASSWORD, now?: string): Promise<CallResult> {
  return call("/api/v1/auth/login", { method: "POST", body: { password }, now });
}
