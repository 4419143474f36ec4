import { MONEY } from "../amount";
import { parseETransfer } from "./etransfer";
import {
  cleanMerchant,
  empty,
  FIELD_LABEL,
  firstMatch,
  greetingName,
  labelled,
  normalize,
  paragraphs,
  transaction,
} from "./text";
import type { Institution, ParsedFields } from "./types";

const PURCHASE = new RegExp(
  String.raw`\ba purchase of ${MONEY} was made on\b.{0,200}?\btowards (?<merchant>.{1,200})`,
  "i",
);
const WITHDRAWAL = new RegExp(String.raw`\bA withdrawal of ${MONEY} was debited from your\b`, "i");

function parseRbc(text: string): ParsedFields {
  const t = normalize(text);
  const blocks = paragraphs(t);
  const purchase = firstMatch(PURCHASE, blocks);
  if (purchase) {
    // The labelled field sits on a line of its own, so it is immune to sentence wrapping and periods.
    const merchant =
      cleanMerchant(labelled(t, "Transaction Description", FIELD_LABEL)) ??
      cleanMerchant(purchase.groups?.merchant);
    return transaction("purchase", purchase.groups?.amt, merchant, greetingName(t));
  }
  const withdrawal = firstMatch(WITHDRAWAL, blocks);
  if (withdrawal) {
    // A withdrawal names only the user's own account, never a payee: company stays null by design.
    return transaction("withdrawal", withdrawal.groups?.amt, null, greetingName(t));
  }
  const transfer = parseETransfer(t);
  return transfer.transaction_type ? transfer : empty();
}

export const RBC: Institution = {
  name: "RBC",
  domains: ["rbc.com", "rbcroyalbank.com"],
  // Some RBC alerts carry the bank's name only inside links (click.alerts.rbc.com), hence the loose marker.
  bodyMarkers: [/\bRBC\b/i, /\bRoyal Bank\b/i],
  kinds: ["purchase", "withdrawal", "e-transfer"],
  parse: parseRbc,
};
