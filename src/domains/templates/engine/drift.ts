/**
 * Wording drift, for every bank: a sender domain that used to parse (built-in parser
 * or learned template) and now quarantines several emails in a row probably changed its wording.
 * One kv_state row per domain; one notice when the run starts counting; cleared by the next parse.
 */
import type { Db } from "../../../db";
import { type DriftState, kvGetPart, kvPut, kvRead } from "../../../db/kv";
import { senderHost } from "./text";

/** Quarantines in a row, after a parse, that count as drift. */
const DRIFT_AFTER = 3;
/** The kv_state key prefix of the drift records (health reads them with its other state). */
export const DRIFT_KEY_PREFIX = "wording:";

const keyOf = (host: string) => `${DRIFT_KEY_PREFIX}${host}` as const;

/** A parse from this sender clears its drift: the write, for a caller's batch (null without a host). */
export function parsedNote(db: Db, fromEmail: string, institution: string, nowIso: string) {
  const host = senderHost(fromEmail);
  if (!host) return null;
  const state = { institution, last_parsed_at: nowIso, fails: 0, notified: false };
  return kvPut(db, keyOf(host), state, nowIso);
}

/** The drift state's read of a sender host, for a caller's read batch (null without a host). */
export const driftRead = (db: Db, fromEmail: string) => {
  const host = senderHost(fromEmail);
  return host ? { host, ...kvGetPart(db, keyOf(host)) } : null;
};

/** The drift state after one more quarantine, and the notice to send when the run starts counting. */
export function driftStep(state: DriftState) {
  const next = { ...state, fails: state.fails + 1 };
  const notify = next.fails >= DRIFT_AFTER && !state.notified;
  if (notify) next.notified = true;
  const notice = notify
    ? {
        kind: "quarantine" as const,
        title: `${state.institution} alerts stopped parsing`,
        text: driftReason(state),
      }
    : null;
  return { next, notice };
}

export const driftWrite = (db: Db, host: string, state: DriftState, nowIso: string) =>
  kvPut(db, keyOf(host), state, nowIso);

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function driftReason(s: DriftState): string {
  const d = new Date(s.last_parsed_at);
  const day = Number.isNaN(d.getTime()) ? s.last_parsed_at : `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
  return `${s.institution} alerts have not parsed since ${day}: their wording may have changed`;
}

/** Health's reasons from kv_state rows: one per domain in drift, in words (other keys ignored). */
export function driftReasonsFrom(rows: readonly { key: string; value: unknown }[]): string[] {
  return rows.flatMap((r) => {
    if (!r.key.startsWith(DRIFT_KEY_PREFIX)) return [];
    const s = kvRead(keyOf(r.key.slice(DRIFT_KEY_PREFIX.length)), r.value);
    return s && s.fails >= DRIFT_AFTER ? [driftReason(s)] : [];
  });
}
