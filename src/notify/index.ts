/**
 * Notifications, shared by ingestion (new transactions, quarantine notices) and the monthly
 * summary. Provider failures are logged and swallowed: what was being reported is already stored.
 */
import { log } from "../lib/log";
import type { Notifier, NotifyMessage } from "./types";

export { logNotifier, notifierFromEnv, ntfyNotifier, twilioNotifier } from "./providers";
export type { Notifier, NotifyMessage } from "./types";

export async function safeSend(notifier: Notifier, msg: NotifyMessage): Promise<boolean> {
  try {
    await notifier.send(msg);
    return true;
  } catch (err) {
    log("warn", "notify.failed", { provider: notifier.name, kind: msg.kind, error: String(err) });
    return false;
  }
}
