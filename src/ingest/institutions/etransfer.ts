import { MONEY } from "../amount";
import {
  empty,
  firstMatch,
  firstName,
  greetingName,
  labelled,
  normalize,
  paragraphs,
  squash,
  transaction,
} from "./text";
import type { ParsedFields } from "./types";

/**
 * Interac e-Transfer notices, shared by every institution whose customers receive them (RBC and
 * Simplii here). Interac sends these from its own domain, so only the body says which bank is involved.
 */

const CAD = String.raw`(?:\s?\(?CAD\)?)?`;
const DEPOSITED = "(?:has been|was) (?:successfully )?deposited";
// A counterparty is a person or business name; stopping at punctuation keeps a preceding sentence out.
const START = "(?:^|[,.!?:] )";
const WHO = "(?<who>[^,.!?:;$]{1,80}?)";

/** Money the user sent, in the wordings Interac has used; the first that matches wins. */
const SENT: RegExp[] = [
  new RegExp(String.raw`\bThe ${MONEY}${CAD} you sent to (?<who>.{1,80}?) ${DEPOSITED}`, "i"),
  new RegExp(
    String.raw`\bThe transfer you sent to (?<who>.{1,80}?) for the amount of ${MONEY}${CAD} ${DEPOSITED}`,
    "i",
  ),
  new RegExp(`${START}${WHO} has accepted your (?:e-?)?transfer of ${MONEY}`, "i"),
];

/**
 * Money received. Recorded as an e-transfer with the sender as company (amounts stay positive, as for
 * every type), but only once Interac says it was deposited: a plain "has sent you money" notice still
 * waits for the user to accept it, and nothing has reached the account yet.
 */
const RECEIVED = new RegExp(
  String.raw`${START}${WHO} has sent you\b.{0,60}?${MONEY}.{0,160}?\b(?:automatically deposited|has been deposited)`,
  "i",
);

const NOT_A_MESSAGE =
  /^(?:Reference Number|Date|Transfer Details|Details of the Transfer|Please do not reply)\b/i;

export function parseETransfer(text: string): ParsedFields {
  const t = normalize(text);
  if (!/\b(?:sent|transfer)\b/i.test(t)) return empty();
  const blocks = paragraphs(t);
  let m: RegExpExecArray | null = null;
  for (const re of SENT) {
    m = firstMatch(re, blocks);
    if (m) break;
  }
  m ??= firstMatch(RECEIVED, blocks);
  const who = m?.groups?.who ? squash(m.groups.who) : "";
  if (!m || who === "") return empty();
  const message = labelled(t, "Message", NOT_A_MESSAGE);
  const reference = /\bReference Number:\s*([A-Za-z0-9-]{1,40})/i.exec(t)?.[1] ?? null;
  const company = [who, message, reference].filter((part) => part).join(" | ");
  // The parser's contract (SPEC) is the type `e-transfer` either way; the stored row's direction is
  // decided from the same words by `directedType` when the draft is built (ingest/pipeline.ts).
  return transaction("e-transfer", m.groups?.amt, company, firstName(greetingName(t)));
}

/**
 * Which way an e-Transfer moved money, from the notice's own words (English and French): money the
 * person sent ("you sent", "has accepted your transfer", "vous avez envoyé", "a accepté votre
 * virement") or received ("has sent you", "deposited", "auto-deposit", "vous a envoyé", "déposé").
 * Null when the words say neither. Sent is looked for first: a sent notice also says "deposited"
 * (into the other person's account).
 */
export function transferDirection(text: string): "sent" | "received" | null {
  const t = normalize(text).normalize("NFC");
  if (
    /\b(?:you(?:'ve| have)? sent|has accepted your (?:interac )?(?:e-?)?transfer|you (?:have )?transferred)\b/i.test(
      t,
    ) ||
    /\bvous avez (?:envoy[ée]|transf[ée]r[ée])|\ba accept[ée] (?:votre|le) (?:virement|transfert)/i.test(t)
  )
    return "sent";
  if (
    /\b(?:has sent you|sent you (?:money|a money transfer)|(?:automatically|auto-?) ?deposit(?:ed)?|has been deposited|you(?:'ve| have)? received)\b/i.test(
      t,
    ) ||
    /\bvous a (?:envoy[ée]|transf[ée]r[ée])|\bd[ée]p[ôo]s[ée]e? automatiquement|\bd[ée]p[ôo]t automatique|\bvous avez re[çc]u/i.test(
      t,
    )
  )
    return "received";
  return null;
}

/**
 * The stored type of an alert's transaction: an e-Transfer whose words say the person sent it is
 * stored as `e-transfer-sent` (money out), whatever read it (a parser, the model or a template).
 */
export function directedType<T extends string | null>(type: T, text: string): T | "e-transfer-sent" {
  if (type === "e-transfer" && transferDirection(text) === "sent") return "e-transfer-sent";
  return type;
}
