import { MONEY } from "../amount";
import { cleanMerchant, empty, FIELD_LABEL, greetingName, labelled, normalize, transaction } from "./text";
import type { Institution, ParsedFields } from "./types";

const SENTENCE = new RegExp(String.raw`\bA\s+purchase\s+of\s+${MONEY}\s+was\s+made\s+on\s+your\b`, "i");
const AMOUNT_FIELD = new RegExp(String.raw`^[^\S\n]*Purchase amount:\s*${MONEY}`, "im");

function parsePcFinancial(text: string): ParsedFields {
  const t = normalize(text);
  const m = SENTENCE.exec(t) ?? AMOUNT_FIELD.exec(t);
  if (!m) return empty();
  // The merchant appears only as a labelled field; the sentence names the card, not the store.
  return transaction(
    "purchase",
    m.groups?.amt,
    cleanMerchant(labelled(t, "Merchant", FIELD_LABEL)),
    greetingName(t),
  );
}

export const PC_FINANCIAL: Institution = {
  name: "PC Financial",
  domains: ["pcfinancial.ca"],
  bodyMarkers: [/\bPC Financial\b/i, /\bPresident['’]s Choice\b/i],
  kinds: ["purchase"],
  parse: parsePcFinancial,
};
