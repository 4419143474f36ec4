import { MONEY } from "../amount";
import { cleanMerchant, empty, greetingName, normalize, transaction } from "./text";
import type { Institution, ParsedFields } from "./types";

// The merchant sits between fixed words, so it may contain periods or wrap across lines.
const PURCHASE = new RegExp(
  String.raw`\bA\s+purchase\s+of\s+${MONEY}\s+from\s+(?<merchant>[^]{1,200}?)\s+was\s+made\s+on\s+your\b`,
  "i",
);

function parseMbna(text: string): ParsedFields {
  const t = normalize(text);
  const m = PURCHASE.exec(t);
  // MBNA alerts carry no greeting today; greetingName keeps a future one rather than guessing.
  return m
    ? transaction("purchase", m.groups?.amt, cleanMerchant(m.groups?.merchant), greetingName(t))
    : empty();
}

export const MBNA: Institution = {
  name: "MBNA",
  domains: ["mbna.ca"],
  bodyMarkers: [/\bMBNA\b/i],
  kinds: ["purchase"],
  parse: parseMbna,
};
