/**
 * Merchant-name normalization for resolver tiers 1 and 2 (pure). Both sides of a comparison go
 * through the same function: the display identity (`merchantName`), then lowercase, drop store numbers (`#204`, `0123`, `No. 12`), location
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
  // The display identity first (codes, card suffixes, `| …` tails gone), then the folding.
  let s = (merchantName(input) || input)
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

/**
 * A category's identity: what makes "Groceries", " groceries " and "GROCERIES" one category in
 * every table (transactions, budget targets and groups, overrides, tax mapping, imports). Unicode
 * compatibility form, whitespace runs collapsed, trimmed, case-folded; an empty name is
 * `uncategorized`. The name a person typed is kept for display; comparisons and joins use this key.
 */
export function categoryKey(name: string | null | undefined): string {
  return tidyName(name).toLowerCase() || "uncategorized";
}

/** A typed name as stored: whitespace runs collapsed and trimmed (case and spelling kept). */
export function tidyName(name: string | null | undefined): string {
  return (name ?? "").normalize("NFKC").replace(/\s+/g, " ").trim();
}

/**
 * A reference code, not a word of a name: mixed letters and digits (`u4VUG5LyKWbR`, `C1AB2`,
 * `x1234`), or letters whose case flips inside the word more than once (`LhWKGhSvUQD`).
 */
function isCode(token: string): boolean {
  const w = token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
  if (w.length < 4) return false;
  if (/\p{L}/u.test(w) && /\d/.test(w) && /^[\p{L}\p{N}]+$/u.test(w)) {
    // Letters then digits once ("Route66") read as a word; a card or store suffix ("x1234",
    // "C01234") or letters and digits alternating ("C1AB2", "u4VUG5") is a code.
    const turns = w.match(/\p{L}(?=\d)|\d(?=\p{L})/gu)?.length ?? 0;
    return turns >= 2 || /^\p{L}{1,2}\d{3,}$/u.test(w);
  }
  return w.length >= 8 && (w.match(/\p{Ll}\p{Lu}/gu)?.length ?? 0) >= 3;
}

/**
 * A merchant's or payer's display name, the one identity every view groups by: the name without
 * the parts that vary from one alert of the same payer to the next. A trailing `| …` segment (an
 * e-Transfer's message or reference), a store or card number (`#1234`, `*1234`, `*2K4T93`), a run
 * of three or more digits after the first word (`SHELL 01234`), and reference-looking tokens are
 * dropped; what is left keeps its case. A name that would lose every word is kept as typed (tidied).
 */
export function merchantName(input: string | null | undefined): string {
  return dropVarying(input, true);
}

/**
 * A payer as stored: only what never names the payer is dropped (a trailing `| …` message or
 * reference, reference-looking codes); a store or card number (`#2281`) is kept, as the bank
 * printed it (SPEC's Company is the merchant as read). Rules compare by `merchantName`'s key.
 */
export function storedName(input: string | null | undefined): string {
  return dropVarying(input, false);
}

function dropVarying(input: string | null | undefined, numbers: boolean): string {
  const s = tidyName(input);
  if (!s) return "";
  const head = s.split(/\s*\|\s*/).find((p) => p !== "") ?? s;
  const tokens = (
    numbers ? head.replace(/#\s*\d[\w-]*/g, " ").replace(/\*+\s*(?=[\w-]*\d)[\w-]+/g, " ") : head
  )
    .split(" ")
    .filter(Boolean);
  // A dropped token leaves its trailing punctuation (a comma still starts a location tail).
  const kept = tokens.map((tok, i) => {
    const tail = /[.,;:]$/.exec(tok)?.[0] ?? "";
    const word = tail ? tok.slice(0, -1) : tok;
    return (numbers && i > 0 && /^\d[\d-]{2,}$/.test(word)) || isCode(word) ? tail : tok;
  });
  const out = kept
    .filter(Boolean)
    .join(" ")
    .replace(/\s+([.,;:])/g, "$1")
    .replace(/[\s,;:*#|-]+$/, "")
    .trim();
  return /[\p{L}\p{N}]/u.test(out) ? out : head.trim();
}

/** A merchant's comparison key: its display name, normalized as the resolver compares names. */
export const merchantKey = (input: string | null | undefined): string =>
  normalizeMerchant(input) || merchantName(input).toLowerCase();
