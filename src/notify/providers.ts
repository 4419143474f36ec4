/**
 * Notification providers. `NOTIFY_PROVIDER` picks one: `ntfy` (POST to NTFY_URL), `twilio`
 * (Twilio-style SMS: form POST to {TWILIO_BASE_URL}/2010-04-01/Accounts/{sid}/Messages.json),
 * `sms-topic`, or `log` (default). `sms-topic` names the cloud SMS-topic channel of SPEC.md; a
 * Worker has no such topic service, so on Cloudflare it is a log-only stand-in and says so.
 */
import type { Env } from "../env";
import { log } from "../lib/log";
import type { Notifier, NotifyMessage } from "./types";

/** Vars beyond src/env.ts that only notifications read. */
export type NotifyEnv = Env & { TWILIO_BASE_URL?: string };

const TIMEOUT_MS = 10_000;

async function post(url: string, init: Omit<RequestInit, "method">): Promise<void> {
  const res = await fetch(url, { ...init, method: "POST", signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!res.ok) throw new Error(`notification provider answered ${res.status}`);
  await res.body?.cancel();
}

export function ntfyNotifier(url: string): Notifier {
  return {
    name: "ntfy",
    send: (m: NotifyMessage) =>
      post(url, {
        headers: {
          Title: m.title.replace(/[^\x20-\x7e]/g, "?"),
          Tags: m.kind === "quarantine" ? "warning" : "moneybag",
        },
        body: m.text,
      }),
  };
}

export function twilioNotifier(opts: {
  baseUrl: string;
  sid: string;
  token: string;
  from: string;
  to: string;
}): Notifier {
  const url = `${opts.baseUrl.replace(/\/+$/, "")}/2010-04-01/Accounts/${encodeURIComponent(opts.sid)}/Messages.json`;
  return {
    name: "twilio",
    send: (m: NotifyMessage) =>
      post(url, {
        headers: {
          Authorization: `Basic ${btoa(`${opts.sid}:${opts.token}`)}`,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ To: opts.to, From: opts.from, Body: `${m.title}\n${m.text}` }).toString(),
      }),
  };
}

export function logNotifier(name = "log", note?: string): Notifier {
  return {
    name,
    send: async (m: NotifyMessage) => {
      log("info", "notify.message", {
        provider: name,
        kind: m.kind,
        title: m.title,
        text: m.text,
        ...(note ? { note } : {}),
      });
    },
  };
}

/** The configured provider; missing settings fall back to log-only (logged once per call site). */
export function notifierFromEnv(env: NotifyEnv): Notifier {
  const provider =
    (env.NOTIFY_PROVIDER ?? "").trim().toLowerCase() || (env.NTFY_URL?.trim() ? "ntfy" : "log");
  if (provider === "ntfy" && env.NTFY_URL?.trim()) return ntfyNotifier(env.NTFY_URL.trim());
  if (
    provider === "twilio" &&
    env.TWILIO_ACCOUNT_SID &&
    env.TWILIO_AUTH_TOKEN &&
    env.TWILIO_FROM &&
    env.NOTIFY_TO
  ) {
    return twilioNotifier({
      baseUrl: env.TWILIO_BASE_URL?.trim() || "https://api.twilio.com",
      sid: env.TWILIO_ACCOUNT_SID,
      token: env.TWILIO_AUTH_TOKEN,
      from: env.TWILIO_FROM,
      to: env.NOTIFY_TO,
    });
  }
  if (provider === "sms-topic") {
    return logNotifier("sms-topic", "no SMS topic service on Cloudflare Workers: log-only stand-in");
  }
  if (provider !== "log") log("warn", "notify.provider_unconfigured", { provider });
  return logNotifier();
}
