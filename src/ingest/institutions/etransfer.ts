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
  return transaction("e-transfer", m.groups?.amt, company, firstName(greetingName(t)));
}
