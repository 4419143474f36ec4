import { MONEY } from "../amount";
import { cleanMerchant, empty, greetingName, normalize, transaction } from "./text";
import type { Institution, ParsedFields } from "./types";

// CIBC puts each sentence on its own line, so a merchant runs to the end of its line; the phrase
// itself may still wrap, hence \s+ between its words.
const PURCHASE = new RegExp(
  String.raw`\bmade\s+a\s+purchase\s+with\s+your\b[^$]{0,120}?\bfor\s+${MONEY}\s+at\s+(?<merchant>[^\n]{1,200})`,
  "i",
);
const PREAUTH = new RegExp(
  String.raw`\bprocessed\s+a\s+pre-?authori[sz]ed\s+payment\s+of\s+${MONEY}\s+to\s+(?<merchant>[^\n]{1,200}?)` +
    String.raw`(?:\s+on\s+[A-Z][a-z]+\.?\s+\d{1,2},?\s+\d{4}|\.?[^\S\n]*$)`,
  "im",
);

function parseCibc(text: string): ParsedFields {
  const t = normalize(text);
  // CIBC greets by the full name on file, which may be several words or hyphenated.
  const name = greetingName(t);
  const purchase = PURCHASE.exec(t);
  if (purchase) {
    return transaction("purchase", purchase.groups?.amt, cleanMerchant(purchase.groups?.merchant), name);
  }
  const preauth = PREAUTH.exec(t);
  if (preauth) {
    return transaction("preauth", preauth.groups?.amt, cleanMerchant(preauth.groups?.merchant), name);
  }
  return empty();
}

export const CIBC: Institution = {
  name: "CIBC",
  domains: ["cibc.com", "cibc.ca"],
  // No trailing \b: CIBC signs off as "CIBCCIBC is committed..." in its plain-text alerts.
  bodyMarkers: [/\bCIBC/i],
  kinds: ["purchase", "preauth"],
  parse: parseCibc,
};
