import { moneyCents } from "../amount";
import type { ParsedFields, TransactionType } from "./types";

/** Parsers accept whatever the pipeline hands them; CRLF mail must look like LF mail. */
export function normalize(text: unknown): string {
  return typeof text === "string" ? text.replace(/\r\n?/g, "\n").trim() : "";
}

export function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function lines(text: string): string[] {
  return text.split("\n").map((line) => line.trim());
}

/** HTML-to-text mail wraps sentences at ~72 columns, so sentences are matched per blank-line paragraph. */
export function paragraphs(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  for (const line of lines(text)) {
    if (line === "") {
      if (current.length > 0) out.push(squash(current.join(" ")));
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length > 0) out.push(squash(current.join(" ")));
  return out;
}

export function firstMatch(re: RegExp, blocks: string[]): RegExpExecArray | null {
  for (const block of blocks) {
    const m = re.exec(block);
    if (m) return m;
  }
  return null;
}

/**
 * Value of a "Label: value" field, or of the next non-empty line when the label stands alone.
 * `stop` rejects a following line that is really the next label, so an empty field stays empty.
 */
export function labelled(text: string, label: string, stop?: RegExp): string | null {
  const all = lines(text);
  const re = new RegExp(`^${label}\\s*:\\s*(.*)$`, "i");
  for (let i = 0; i < all.length; i++) {
    const m = re.exec(all[i]!);
    if (!m) continue;
    if (m[1]) return squash(m[1]);
    const next = all.slice(i + 1).find((line) => line !== "");
    if (next === undefined || stop?.test(next)) return null;
    return squash(next);
  }
  return null;
}

/** A line that is itself a "Label:" heading, i.e. not the value of the label above it. */
export const FIELD_LABEL = /^[A-Z][A-Za-z ]{0,30}:/;

// Brackets and underscores admit the "[CARDHOLDER_NAME]" placeholder some banks send verbatim.
const NAME_CHARS = /^[\p{L}\p{M}[\]_][\p{L}\p{M}[\]_'’.\- ]*$/u;
const GREETING = /^(?:Hi|Hello|Dear)\s+([^,]{1,80}?)\s*,/i;

/** The addressee from the first greeting line, as written; "Hello," alone gives null. */
export function greetingName(text: string): string | null {
  const line = lines(text).find((l) => /^(?:Hi|Hello|Dear)\b/i.test(l));
  const m = line ? GREETING.exec(line) : null;
  if (!m) return null;
  const name = squash(m[1]!);
  return NAME_CHARS.test(name) && name.split(" ").length <= 6 ? name : null;
}

/** First given name; all-caps names (Interac's style) are title-cased, each hyphen/apostrophe part too. */
export function firstName(fullName: string | null): string | null {
  const first = fullName?.split(" ")[0];
  if (!first) return null;
  if (first.startsWith("[") || first !== first.toUpperCase() || first === first.toLowerCase()) return first;
  return first
    .toLowerCase()
    .replace(/(^|[-'’])(\p{L})/gu, (_all, sep: string, letter: string) => sep + letter.toUpperCase());
}

// A sentence-ending period is only trusted before words that start the banks' follow-up sentences,
// so "St. Hubert" and "Amazon.ca" survive while "FOO. You can sign on..." is cut.
const FOLLOW_UP = /\.\s+(?=(?:You|Your|If|Please|Thank|Thanks|Sincerely|View|This|We|Call|To)\b)/;

/** Trims a captured merchant: whitespace (including CR), a trailing sentence period, follow-up text. */
export function cleanMerchant(raw: string | undefined | null): string | null {
  if (typeof raw !== "string") return null;
  let s = squash(raw);
  const cut = FOLLOW_UP.exec(s);
  if (cut) s = s.slice(0, cut.index);
  s = s.replace(/\.+$/, "").trim();
  return s === "" ? null : s;
}

/** Last four card or account digits, for the pipeline's card-to-holder name mapping. */
export function cardLastFour(text: string): string | null {
  const t = normalize(text);
  const m = /\bending\s+in\s+(\d{4})\b/i.exec(t) ?? /\*{4,}(\d{4})(?!\d)/.exec(t);
  return m ? m[1]! : null;
}

/** Either a whole transaction or nothing: a half-recognized email must not look like a transaction. */
export function transaction(
  type: TransactionType,
  amountText: string | undefined,
  company: string | null,
  name: string | null,
): ParsedFields {
  const amount = moneyCents(amountText);
  if (amount === null) return empty();
  return { amount, company, name, transaction_type: type };
}

export const empty = (): ParsedFields => ({
  amount: null,
  company: null,
  name: null,
  transaction_type: null,
});
