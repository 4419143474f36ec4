/**
 * What the pipeline checks on an email before trusting its reading:
 * - the bank's own message failed authentication where the receiving server says so
 *   (Authentication-Results / ARC-Authentication-Results): quarantined instead of read;
 * - a hand-forwarded alert from an address the owner has not vouched for (configured forwarding
 *   addresses, or one learned when the owner confirmed such a row): still its transaction, flagged;
 * - the currency printed beside the amount, kept in the row's extraction audit; another currency
 *   than the journal's flags the row.
 * Uploads by the signed-in owner are trusted (no forwarder or authentication check).
 */
import type { Db } from "../db";
import type { Cents } from "../lib/money";
import { currencyBeside } from "./amounts";
import { isTrusted, trust } from "../domains/ignored-emails/ignored";
import type { ParsedEmail } from "./mime";
import { readExtractionAudit } from "./stored";
import type { ExtractionAudit, IngestDeps } from "./types";

export const DEFAULT_JOURNAL_CURRENCY = "CAD";

/** Doors where the signed-in owner handed the email in themselves. */
const OWNER_DOORS = new Set(["upload"]);

const METHODS = /\b(dmarc|dkim|spf)=(\w+)/gi;

/**
 * The verdicts that speak of the bank's own message: the first ARC hop's (`i=1`, given before
 * any automatic forwarding) when the message carries an ARC set, else the receiving server's.
 */
function bankVerdicts(results: string[]): string[] {
  const arc = results
    .filter((r) => r.startsWith("arc:"))
    .map((r) => ({ i: Number(/\bi\s*=\s*(\d+)/.exec(r)?.[1] ?? "99"), r: r.slice(4) }))
    .sort((a, b) => a.i - b.i);
  if (arc.length) return [arc[0]!.r];
  return results.filter((r) => !r.startsWith("arc:"));
}

/**
 * Whether the verdict on the bank's own message is a failure: DMARC failed, or DKIM did not pass
 * while SPF failed. A hand-forwarded alert's headers speak of the forwarder's message, not the
 * bank's, so they are not read for it. No header: no verdict.
 */
export function authenticationFailed(email: ParsedEmail): boolean {
  if (email.forwardedBy) return false;
  for (const header of bankVerdicts(email.authResults ?? [])) {
    const seen = new Map<string, string>();
    for (const m of header.matchAll(METHODS)) seen.set(m[1]!.toLowerCase(), m[2]!.toLowerCase());
    if (seen.get("dmarc") === "fail") return true;
    const dkim = seen.get("dkim");
    const spf = seen.get("spf");
    if (dkim && spf && dkim !== "pass" && (spf === "fail" || spf === "softfail")) return true;
  }
  return false;
}

export const shouldCheckAuthentication = (deps: IngestDeps) => !OWNER_DOORS.has(deps.source ?? "");

export interface RowChecks {
  /** Fields added to the row's ExtractionAudit. */
  audit: Pick<ExtractionAudit, "currency" | "currency_printed" | "notes" | "forwarded_by">;
  /** The attention-queue reason when a person should look at the row, else null. */
  attention: string | null;
}

/** The forwarder and currency checks of one reading (never throws: a failed lookup flags). */
export async function checkReading(deps: IngestDeps, email: ParsedEmail, cents: Cents): Promise<RowChecks> {
  const notes: string[] = [];
  let attention: string | null = null;
  const found = currencyBeside(`${email.subject}\n${email.text}`, cents);
  const journal = deps.settings.currency ?? DEFAULT_JOURNAL_CURRENCY;
  if (found?.currency && found.currency !== journal) {
    notes.push(`Printed in ${found.currency} ("${found.text}"), not the journal's ${journal}.`);
    attention = "currency_mismatch";
  }
  const forwarder = email.forwardedBy?.fromEmail?.toLowerCase() || null;
  let forwardedBy: string | null = null;
  // A known address counts only when the receiving side vouched for it (received.ts).
  const vouched = email.forwardedBy?.verified === true;
  const known =
    forwarder && !OWNER_DOORS.has(deps.source ?? "") ? await knownForwarder(deps, forwarder) : null;
  if (forwarder && known !== null && !(vouched && known)) {
    notes.push(
      known
        ? `Forwarded as ${forwarder}, but the receiving server did not confirm that sender.`
        : `Forwarded by ${forwarder}, not one of your forwarding addresses.`,
    );
    forwardedBy = forwarder;
    attention = "unknown_forwarder";
  }
  return {
    audit: {
      currency: found?.currency ?? null,
      currency_printed: found?.mark ?? null,
      ...(notes.length ? { notes } : {}),
      ...(forwardedBy ? { forwarded_by: forwardedBy } : {}),
    },
    attention,
  };
}

async function knownForwarder(deps: IngestDeps, address: string): Promise<boolean> {
  const configured = (deps.settings.forwardingAddresses ?? []).map((a) => a.trim().toLowerCase());
  return configured.includes(address) || isTrusted(deps.db, address, "forwarder");
}

/**
 * The owner confirmed a row: if it was flagged as forwarded by an unknown address, that address
 * becomes a known forwarder. Returns the address learned, if any.
 */
export async function learnForwarder(
  db: Db,
  extractionAudit: unknown,
  nowIso: string,
): Promise<string | null> {
  const audit = readExtractionAudit(extractionAudit);
  const address = typeof audit?.forwarded_by === "string" ? audit.forwarded_by : null;
  if (!address) return null;
  await trust(db, address, "forwarder", "confirmed_row", nowIso);
  return address;
}
