/**
 * Merchant-name normalization for resolver tiers 1 and 2 (pure). Both sides of a comparison go
 * through the same function: lowercase, drop store numbers (`#204`, `0123`, `No. 12`), location
 * markers (`store 12`, `unit 3`, trailing city/region tails after a comma), trailing two-letter
 * region codes, card-processor prefixes (`SQ *`, `TST*`), and punctuation.
 */

/** Canadian provinces/territories and US states (+ DC), the region codes alerts append. */
const REGION_CODES = new Set(
  (
    "ab bc mb nb nl ns nt nu on pe qc sk yt " +
    "al ak az ar ca co ct de dc fl ga hi id il in ia ks ky la me md ma mi mn ms mo mt ne nv nh nj nm " +
    "ny nc nd oh ok or pa ri sc sd tn tx ut vt va wa wv wi wy"
  ).split(" "),
);

const LOCATION_WORDS = /\b(store|location|loc|branch|unit|ste|suite)\b\.?\s*#?\s*\d*|\bno\.?\s*#?\s*\d+/g;

export function normalizeMerchant(input: string | null | undefined): string {
  if (!input) return "";
  let s = input
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "");
  // Processor prefixes such as "sq *", "tst* ", "pp*".
  s = s.replace(/^(sq|tst|pp|sp|paypal|ext)\s*\*\s*/, "");
  // A comma tail is a location ("starbucks, vancouver, bc").
  const comma = s.indexOf(",");
  if (comma > 0 && s.slice(0, comma).trim()) s = s.slice(0, comma);
  s = s.replace(LOCATION_WORDS, " ");
  s = s.replace(/#\s*\d+/g, " ");
  // Standalone numbers: store ids (0123), dates, terminal numbers.
  s = s.replace(/(^|[\s,*-])\d[\d-]*(?=$|[\s,*-])/g, "$1 ");
  s = s.replace(/[^\p{L}\p{N}\s&]/gu, " ");
  s = s.replace(/&/g, " and ");
  const tokens = s.split(/\s+/).filter(Boolean);
  // Trailing region code (and a city before it is too ambiguous to strip without a gazetteer).
  while (tokens.length > 1 && REGION_CODES.has(tokens[tokens.length - 1] ?? "")) tokens.pop();
  return tokens.join(" ");
}
