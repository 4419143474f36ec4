import { getDb } from "../../db";
import { kvRead } from "../../db/kv";
import { flag } from "../../env";
import type { ServiceCtx } from "../../lib/context";
import { ageSeconds } from "../../lib/clock";
import { AI_STATE_KEY } from "../../categorize/model";
import { DRIFT_KEY_PREFIX, driftReasonsFrom } from "../templates/engine";
import { readHealthRows } from "./queries";
import { healthStatus } from "./rules";
import type { HealthResponse } from "./schemas";

/** Liveness and last-activity snapshot; never throws, answers from five cheap indexed reads in one D1 round trip. */
export async function getHealth(ctx: ServiceCtx, remote: boolean = false): Promise<HealthResponse> {
  const now = ctx.clock();
  const db = getDb(ctx.env.DB);
  const since = new Date(now.getTime() - 7 * 24 * 3600 * 1000).toISOString();
  const {
    heartbeat,
    lastTransactionAt: lastTx,
    parseFailures7d: failures,
    state,
    passwordSet: authRequired,
    // The AI status and the wording-drift records come in one kv_state read.
  } = await readHealthRows(db, { sinceIso: since, stateKey: AI_STATE_KEY, statePrefix: DRIFT_KEY_PREFIX });
  const ai = parseAiState(state?.find((r) => r.key === AI_STATE_KEY)?.value ?? null);
  // A bank whose alerts stopped parsing degrades an otherwise ok status.
  const drift = driftReasonsFrom(state ?? []);
  const pollAge = ageSeconds(ctx.clock, heartbeat?.last_poll_at);
  const txAge = ageSeconds(ctx.clock, lastTx);
  const { status, reasons } = healthStatus({
    pollerConfigured: Boolean(ctx.env.IMAP_HOST?.trim()),
    pollAgeSeconds: pollAge,
    // Health is public: only the error's class (e.g. ImapAuthError), never host or server text.
    pollFailures: heartbeat
      ? { count: heartbeat.consecutive_failures, error: heartbeat.last_error?.split(":")[0]?.trim() || null }
      : undefined,
    lastTransactionAgeSeconds: txAge,
    parseFailures7d: failures,
    aiStatus: ai.status,
  });
  const shown = drift.length
    ? { status: status === "ok" ? ("degraded" as const) : status, reasons: [...reasons, ...drift] }
    : { status, reasons };
  return {
    ...shown,
    version: ctx.env.APP_VERSION ?? "0.0.0",
    backend: "d1",
    imap_last_poll: heartbeat?.last_poll_at ?? null,
    imap_poll_age_seconds: pollAge,
    last_transaction_at: lastTx,
    last_transaction_age_seconds: txAge,
    parse_failures_7d: failures,
    ai_categorization_status: ai.status,
    ai_last_error_reason: ai.reason,
    auth_required: authRequired || (remote && !flag(ctx.env.ALLOW_REMOTE_TOFU)),
    quiet_institutions: null,
    checked_at: now.toISOString(),
  };
}

function parseAiState(raw: unknown): { status: "ok" | "degraded" | null; reason: string | null } {
  const v = kvRead(AI_STATE_KEY, raw ?? undefined);
  return { status: v?.status ?? null, reason: v?.reason ?? null };
}
