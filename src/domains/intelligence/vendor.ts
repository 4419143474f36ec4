/**
 * The `vendor` account connection: start a device sign-in, report (and advance) it, disconnect.
 * Status reads poll the token endpoint at most once per the server's interval, so a page that
 * polls every second never floods the authorization server. Tokens stay in D1, out of responses.
 */
import { eq } from "drizzle-orm";
import {
  accountEmail,
  type DeviceFlowEnv,
  deviceFlowConfig,
  pollDeviceToken,
  startDeviceAuthorization,
  type TokenPoll,
} from "../../ai/device-flow";
import { getDb } from "../../db";
import { vendorConnections } from "../../db/schema";
import type { ServiceCtx } from "../../lib/context";
import { ApiError } from "../../lib/errors";
import { log } from "../../lib/log";
import { getConfig } from "../config/service";

type Ctx = Pick<ServiceCtx, "env" | "clock">;
type Row = typeof vendorConnections.$inferSelect;
const v = vendorConnections;

const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

function configOrThrow(ctx: Ctx) {
  const cfg = deviceFlowConfig(ctx.env as DeviceFlowEnv);
  if (!cfg) {
    throw new ApiError(
      422,
      "The vendor sign-in is not set up on this server (VENDOR_DEVICE_AUTH_URL, VENDOR_TOKEN_URL, VENDOR_CLIENT_ID).",
    );
  }
  return cfg;
}

export async function startVendorLogin(ctx: Ctx) {
  const cfg = configOrThrow(ctx);
  const { user_id } = await getConfig({ ctx });
  let auth: Awaited<ReturnType<typeof startDeviceAuthorization>>;
  try {
    auth = await startDeviceAuthorization(cfg);
  } catch (err) {
    throw new ApiError(
      502,
      `The vendor sign-in could not start: ${err instanceof Error ? err.message : String(err)}.`,
    );
  }
  const now = ctx.clock();
  const row = {
    user_id,
    state: "pending",
    device_code: auth.deviceCode,
    user_code: auth.userCode,
    verification_url: auth.verificationUrl,
    interval_s: auth.interval,
    expires_at: later(now, auth.expiresIn),
    next_poll_at: later(now, auth.interval),
    access_token: null,
    refresh_token: null,
    token_expires_at: null,
    email: null,
    error: null,
    updated_at: now.toISOString(),
  };
  await getDb(ctx.env.DB).insert(v).values(row).onConflictDoUpdate({ target: v.user_id, set: row });
  return { verification_url: auth.verificationUrl, user_code: auth.userCode };
}

function out(row: Row | undefined) {
  return {
    connected: row?.state === "connected",
    pending: row?.state === "pending",
    email: row?.state === "connected" ? (row.email ?? null) : null,
    error: row?.state === "error" ? row.error : null,
    verification_url: row?.state === "pending" ? row.verification_url : null,
    user_code: row?.state === "pending" ? row.user_code : null,
  };
}

export async function vendorLoginStatus(ctx: Ctx) {
  const { user_id } = await getConfig({ ctx });
  const db = getDb(ctx.env.DB);
  const [row] = await db.select().from(v).where(eq(v.user_id, user_id));
  if (row?.state !== "pending" || !row.device_code) return out(row);
  const now = ctx.clock();
  const cfg = deviceFlowConfig(ctx.env as DeviceFlowEnv);
  const set = async (patch: Partial<Row>) => {
    const next = { ...row, ...patch, updated_at: now.toISOString() };
    await db.update(v).set(next).where(eq(v.user_id, user_id));
    return out(next);
  };
  if (row.expires_at && now.toISOString() >= row.expires_at) {
    return set({ state: "error", device_code: null, error: "The sign-in code expired; start again." });
  }
  if (!cfg || (row.next_poll_at && now.toISOString() < row.next_poll_at)) return out(row);
  let poll: TokenPoll;
  try {
    poll = await pollDeviceToken(cfg, row.device_code);
  } catch {
    poll = { kind: "failed" as const, reason: "no answer" };
  }
  switch (poll.kind) {
    case "pending":
      return set({ next_poll_at: later(now, row.interval_s) });
    case "slow_down": // RFC 8628 §3.5: add 5 seconds to the interval from now on
      return set({ interval_s: row.interval_s + 5, next_poll_at: later(now, row.interval_s + 5) });
    case "denied":
      return set({ state: "error", device_code: null, error: "The sign-in was declined." });
    case "expired":
      return set({ state: "error", device_code: null, error: "The sign-in code expired; start again." });
    case "failed":
      log("warn", "vendor.poll_failed", { reason: poll.reason });
      return set({ next_poll_at: later(now, row.interval_s) });
    case "granted": {
      const email = await accountEmail(cfg, poll.accessToken, poll.idToken);
      return set({
        state: "connected",
        device_code: null,
        user_code: null,
        verification_url: null,
        access_token: poll.accessToken,
        refresh_token: poll.refreshToken,
        token_expires_at: poll.expiresIn ? later(now, poll.expiresIn) : null,
        email,
        error: null,
      });
    }
  }
}

export async function disconnectVendor(ctx: Ctx) {
  const { user_id } = await getConfig({ ctx });
  await getDb(ctx.env.DB).delete(v).where(eq(v.user_id, user_id));
  return { ok: true };
}

/** For the configuration read: `vendor_oauth_connected` / `vendor_oauth_email`. */
export async function vendorConnection(ctx: Ctx, userId: string) {
  try {
    const [row] = await getDb(ctx.env.DB)
      .select({ state: v.state, email: v.email })
      .from(v)
      .where(eq(v.user_id, userId));
    return {
      connected: row?.state === "connected",
      email: row?.state === "connected" ? (row.email ?? null) : null,
    };
  } catch {
    return { connected: false, email: null };
  }
}
