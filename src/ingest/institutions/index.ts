import { hostMatches as domainMatches, senderHost } from "../../domains/templates/engine/text";
import { TRANSACTION_TYPES } from "../../lib/transaction-types";
import { CIBC } from "./cibc";
import { MBNA } from "./mbna";
import { PC_FINANCIAL } from "./pc-financial";
import { RBC } from "./rbc";
import { SIMPLII } from "./simplii";
import { empty } from "./text";
import type { Institution, ParsedFields, TransactionType } from "./types";

export { parseAmountCents } from "../amount";
export { directedType, parseETransfer, transferDirection } from "./etransfer";
export { cardLastFour } from "./text";
export type { Institution, ParsedFields, TransactionType } from "./types";

/**
 * Fixed body-scan order. Only Interac notices name several banks (the user's and the other party's);
 * the two institutions with an e-transfer parser come first so such a notice lands where it can be
 * parsed, and RBC precedes Simplii because the reference fixtures file RBC-sender notices to
 * Simplii accounts under RBC.
 */
export const INSTITUTIONS: Institution[] = [RBC, SIMPLII, CIBC, MBNA, PC_FINANCIAL];

/**
 * Phase 1: the sender domain (a subdomain matches its parent). Interac's domain is in no institution's
 * list because it speaks for every bank; such mail, like any unknown sender, falls to phase 2.
 * Phase 2: the first institution in INSTITUTIONS whose name appears in the body.
 */
export function detectInstitution(fromEmail: string | null, body: string): Institution | null {
  const byDomain = institutionByDomain(fromEmail);
  if (byDomain || typeof body !== "string") return byDomain;
  return INSTITUTIONS.find((inst) => inst.bodyMarkers.some((re) => re.test(body))) ?? null;
}

/** The built-in institution that owns this sender's domain (never guessed from the body). */
export function institutionByDomain(fromEmail: string | null): Institution | null {
  const host = senderHost(fromEmail);
  return host
    ? (INSTITUTIONS.find((inst) => inst.domains.some((d) => domainMatches(host, d))) ?? null)
    : null;
}

const TYPES: ReadonlySet<TransactionType> = new Set(TRANSACTION_TYPES);

/** Guards the contract even against a faulty parser: never throws, never NaN, never a stray type. */
export function parseWithInstitution(inst: Institution, body: string): ParsedFields {
  let raw: ParsedFields;
  try {
    raw = inst.parse(body);
  } catch {
    return empty();
  }
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  const amount = typeof raw?.amount === "number" && Number.isInteger(raw.amount) ? raw.amount : null;
  const type = raw?.transaction_type;
  return {
    amount,
    company: text(raw?.company),
    name: text(raw?.name),
    transaction_type: type && TYPES.has(type) ? type : null,
  };
}

/** The Interac e-Transfer service's sender domain (speaks for every bank, so in no domain list). */
const INTERAC_DOMAIN = "interac.ca";
const INTERAC_WORDING = /\bInterac\b[^\n]{0,20}?\be-?Transfer/i;

/** An Interac e-Transfer notice: sent from Interac's domain, or worded as one. */
export function isETransferNotice(fromEmail: string | null, body: string): boolean {
  const host = senderHost(fromEmail);
  if (host && domainMatches(host, INTERAC_DOMAIN)) return true;
  return typeof body === "string" && INTERAC_WORDING.test(body);
}

export interface ParseStep {
  institution: Institution | null;
  fields: ParsedFields;
  /** The step that failed when no amount was read; null when the parser read a transaction. */
  stage: "no_parser_match" | "extraction_empty" | null;
}

/**
 * Steps 2 and 3 (detect, parse) and, when they yield no amount, which of them failed: no
 * institution, or an e-transfer notice routed by name to an institution whose parser does not
 * read e-transfers, is `no_parser_match`; a parser that ran and recognized nothing is
 * `extraction_empty`.
 */
export function parseStep(fromEmail: string | null, body: string): ParseStep {
  const institution = detectInstitution(fromEmail, body);
  if (!institution) return { institution, fields: empty(), stage: "no_parser_match" };
  const fields = parseWithInstitution(institution, body);
  if (fields.amount !== null) return { institution, fields, stage: null };
  const noParser = isETransferNotice(fromEmail, body) && !institution.kinds.includes("e-transfer");
  return { institution, fields, stage: noParser ? "no_parser_match" : "extraction_empty" };
}

export function parseAlert(fromEmail: string | null, body: string) {
  const { institution, fields } = parseStep(fromEmail, body);
  return { institution: institution?.name ?? null, fields };
}
