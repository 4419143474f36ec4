/**
 * Raw message → the few fields the pipeline needs. Never throws: garbage in gives a mostly-empty
 * result. QP, base64 and charsets are postal-mime's job; HTML-only mail gets our own text rendering
 * (postal-mime's keeps link targets inline, which pollutes merchant names).
 */
import PostalMime, { type Address } from "postal-mime";
import { htmlToText } from "./html-text";
import { mimeRefusal, POSTAL_MIME_LIMITS } from "./mime-limits";
import { scanHeader, toBytes } from "./raw";

export interface ParsedEmail {
  fromName: string;
  fromEmail: string;
  toName: string;
  toEmail: string;
  /** Recipient the alert was forwarded to (partition key), lowercased. */
  forwardedTo: string;
  /** The raw Date header, unparsed (dates.ts owns the time-zone rules). */
  dateHeader: string | null;
  subject: string;
  messageId: string | null;
  /** Plain-text body, LF line ends, no trailing CRs. */
  text: string;
  /**
   * Authentication-Results values as received, and ARC-Authentication-Results ones prefixed
   * `arc:` (the first ARC hop judged the bank's own message before any forwarding).
   */
  authResults?: string[];
  /** ARC-Seal values as received (received.ts reads each instance's sealer). */
  arcSeals?: string[];
  /** Mailboxes the From header names (a list starting with a trusted address is not that address). */
  fromMailboxes?: number;
  /**
   * Set when the body held a hand-forwarded alert and the fields above were taken from it
   * (forwarded.ts): who forwarded it, and when, as the outer message said.
   */
  forwardedBy?: {
    fromEmail: string;
    subject: string;
    dateHeader: string | null;
    /** The forwarded block's date line as printed. */
    printedDate: string | null;
    /** Whether the receiving side vouched for `fromEmail` (received.ts); set by the pipeline. */
    verified?: boolean;
  };
  /** Set when the email was refused before parsing (mime-limits.ts): why, in words. */
  refused?: string;
}

/** Parsers see at most this much text (regex safety on huge mail). */
export const MAX_TEXT_CHARS = 512 * 1024;

const FORWARD_HEADERS = ["x-forwarded-to", "delivered-to", "x-original-to"];

export function emptyEmail(): ParsedEmail {
  return {
    fromName: "",
    fromEmail: "",
    toName: "",
    toEmail: "",
    forwardedTo: "",
    dateHeader: null,
    subject: "",
    messageId: null,
    text: "",
  };
}

function firstMailbox(list: Address | Address[] | undefined): { name: string; address: string } {
  const items = Array.isArray(list) ? list : list ? [list] : [];
  for (const a of items) {
    if (a.address) return { name: a.name ?? "", address: a.address };
    const m = a.group?.find((g) => g.address);
    if (m) return { name: m.name ?? "", address: m.address };
  }
  return { name: "", address: "" };
}

/** Addresses named by the From header(s) (quoted display names left out). */
function mailboxCount(values: string[]): number {
  return values.reduce(
    (n, v) => n + (v.replace(/"(?:[^"\\]|\\.)*"/g, "").match(/[^\s<>,;:"']+@[^\s<>,;"']+/g)?.length ?? 0),
    0,
  );
}

/**
 * The recipient parseMime will give (`forwardedTo`: a forwarding header, else the first To
 * address), scanned from the head without a full parse; "" when none. A guess for reads made up
 * front: the pipeline compares it with the parsed one.
 */
export function scanRecipient(bytes: Uint8Array): string {
  for (const key of [...FORWARD_HEADERS, "to"]) {
    const value = scanHeader(bytes, key);
    const address = value ? bareAddress(value) : "";
    if (address) return address;
  }
  return "";
}

/** Bare address out of a header value such as `"Name" <a@b.c>, other`. */
export function bareAddress(value: string): string {
  const angle = /<([^<>\s@]+@[^<>\s]+)>/.exec(value);
  if (angle?.[1]) return angle[1].toLowerCase();
  const plain = /[^\s<>,;"']+@[^\s<>,;"']+/.exec(value);
  return plain ? plain[0].toLowerCase() : "";
}

export function cleanText(text: string): string {
  const normalized = text.replace(/\r\n?/g, "\n").replace(/\u0000/g, "");
  return normalized.length > MAX_TEXT_CHARS ? normalized.slice(0, MAX_TEXT_CHARS) : normalized;
}

/** Whether the message has a text/plain part (no Content-Type at all means text/plain). */
function hasPlainPart(headText: string, rawText: string): boolean {
  if (!/^content-type:/im.test(headText)) return true;
  return /content-type:\s*text\/plain/i.test(rawText);
}

/** The head's fields only, for an email refused before parsing: its body is never read. */
function headOnly(bytes: Uint8Array, refused: string): ParsedEmail {
  const out = emptyEmail();
  const from = scanHeader(bytes, "from") ?? "";
  out.fromEmail = bareAddress(from);
  out.fromName = from
    .replace(/<[^>]*>/, "")
    .replace(/["']/g, "")
    .trim()
    .slice(0, 200);
  out.toEmail = bareAddress(scanHeader(bytes, "to") ?? "");
  out.forwardedTo = scanRecipient(bytes);
  out.subject = (scanHeader(bytes, "subject") ?? "").slice(0, 500);
  out.messageId = scanHeader(bytes, "message-id");
  out.dateHeader = scanHeader(bytes, "date");
  out.refused = refused;
  return out;
}

export async function parseMime(raw: Uint8Array | string): Promise<ParsedEmail> {
  const bytes = toBytes(raw);
  const refused = mimeRefusal(bytes);
  if (refused) return headOnly(bytes, refused);
  const out = emptyEmail();
  let rawText = "";
  try {
    rawText = typeof raw === "string" ? raw : new TextDecoder("latin1").decode(raw);
    const email = await PostalMime.parse(raw, POSTAL_MIME_LIMITS);
    const headerOf = (key: string) => email.headers.find((h) => h.key === key)?.value ?? null;
    const from = firstMailbox(email.from);
    const to = firstMailbox(email.to);
    out.fromName = from.name.trim();
    out.fromEmail = from.address.trim().toLowerCase();
    out.toName = to.name.trim();
    out.toEmail = to.address.trim().toLowerCase();
    out.subject = (email.subject ?? "").trim();
    out.messageId = email.messageId?.trim() || null;
    out.dateHeader = headerOf("date")?.trim() || null;
    out.authResults = email.headers.flatMap((h) =>
      h.key === "authentication-results"
        ? [h.value]
        : h.key === "arc-authentication-results"
          ? [`arc:${h.value}`]
          : [],
    );
    out.arcSeals = email.headers.filter((h) => h.key === "arc-seal").map((h) => h.value);
    out.fromMailboxes = mailboxCount(email.headers.filter((h) => h.key === "from").map((h) => h.value));
    const forwarded = FORWARD_HEADERS.map(headerOf).find((v) => v && bareAddress(v));
    out.forwardedTo = forwarded ? bareAddress(forwarded) : out.toEmail;
    const headEnd = rawText.search(/\r?\n\r?\n/);
    const head = headEnd >= 0 ? rawText.slice(0, headEnd) : rawText;
    const text = email.html && !hasPlainPart(head, rawText) ? htmlToText(email.html) : (email.text ?? "");
    out.text = cleanText(text);
  } catch {
    // Not a parseable message: keep whatever text there is so the quarantine can show it.
    out.text = cleanText(rawText.includes("\n\n") ? rawText.slice(rawText.indexOf("\n\n") + 2) : rawText);
  }
  return out;
}
