/**
 * Hand-forwarded alerts. When a person forwards an alert from their mail client, the message's own
 * From/Date/Subject are theirs (and the moment they forwarded it); the alert's are printed in a
 * header block inside the body. Layout rule, whatever the client or its language of dashes:
 * a marker line ("---------- Forwarded message ---------", "-----Original Message-----",
 * "Begin forwarded message:", an underscore rule) or none at all, then consecutive "Label: value"
 * lines naming at least the sender, then the forwarded body, possibly quoted with ">".
 * A block without a marker must name sender, date and subject, so an alert's own "Date:" field
 * is never taken for one. A forward of a forward is unwrapped to the innermost block.
 */
import { rfc5322Utc } from "./dates";
import { parseForwardedDate } from "./forward-date";
import type { ParsedEmail } from "./mime";

const MARKER = /^[\s\-_=*]*(?:begin forwarded message|forwarded message|original message)[\s\-_=*:]*$/i;
const RULE = /^_{8,}$/;
// Unambiguous whitespace runs ([ \t]* between fixed tokens) keep the match linear on hostile lines.
const HEADER =
  /^\*?[ \t]*(from|sent|date|subject|to|cc|bcc|reply-to)(?:[ \t]*\*)?[ \t]*:[ \t]*\*?[ \t]*(.*)$/i;
const MAX_HEADER_LINE = 2000;

/** The label and value of a header row, or null. */
function headerRow(line: string): RegExpExecArray | null {
  return line.length > MAX_HEADER_LINE ? null : HEADER.exec(line);
}

/** Forwards nest this deep at most before the rest is taken as the body. */
const MAX_DEPTH = 8;

export interface ForwardBlock {
  /** Lowercased label → value, first occurrence wins. */
  headers: Map<string, string>;
  /** The forwarded part, one quoting level removed when the block was quoted. */
  body: string;
}

/** Quote depth of a line ("> > x" is 2) and the line without it. */
function unquote(line: string): { depth: number; text: string } {
  const m = /^((?:[ \t]*>)+)[ \t]?/.exec(line);
  if (!m) return { depth: 0, text: line };
  return { depth: (m[1]!.match(/>/g) ?? []).length, text: line.slice(m[0].length) };
}

/** Removes `levels` quoting levels from every line that has them. */
function stripQuotes(lines: string[], levels: number): string[] {
  return lines.map((line) => {
    let out = line;
    for (let i = 0; i < levels && /^[ \t]*>/.test(out); i++) out = out.replace(/^[ \t]*>[ \t]?/, "");
    return out;
  });
}

const complete = (h: Map<string, string>) =>
  h.has("from") && (h.has("date") || h.has("sent")) && h.has("subject");

/** Reads the header lines starting at `start`; null when they do not make a forwarded header. */
function readHeaders(lines: string[], start: number, marked: boolean) {
  const headers = new Map<string, string>();
  let i = start;
  let depth = 0;
  let last: string | null = null;
  while (i < lines.length) {
    const raw = lines[i]!;
    const { depth: d, text } = unquote(raw);
    const line = text.trim();
    const m = headerRow(line);
    if (m) {
      const label = m[1]!.toLowerCase();
      if (headers.has(label)) break;
      if (headers.size === 0) depth = d;
      headers.set(label, m[2]!.trim());
      last = label;
      i++;
      continue;
    }
    if (line === "") {
      // HTML turned into text can leave blank lines between header rows; cross one only while the
      // block still lacks a field and the next row is a header not seen yet.
      let next = i + 1;
      while (next < lines.length && unquote(lines[next]!).text.trim() === "") next++;
      const peek = next < lines.length ? headerRow(unquote(lines[next]!).text.trim()) : null;
      if (headers.size > 0 && !complete(headers) && peek && !headers.has(peek[1]!.toLowerCase())) {
        i = next;
        continue;
      }
      break;
    }
    // A wrapped value (a long recipient list) continues on an indented line.
    if (last && /^[ \t]/.test(text) && headers.size > 0) {
      headers.set(last, `${headers.get(last)} ${line}`);
      i++;
      continue;
    }
    break;
  }
  if (!headers.has("from") || !headers.get("from")) return null;
  if (!marked && !complete(headers)) return null;
  if (headers.size < 2) return null;
  return { headers, end: i, depth };
}

/** The first forwarded block in `text`, or null. */
export function findForwardBlock(text: string): ForwardBlock | null {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = unquote(lines[i]!).text.trim();
    const marked = MARKER.test(line) || RULE.test(line);
    let start = i;
    if (marked) {
      start = i + 1;
      while (start < lines.length && unquote(lines[start]!).text.trim() === "") start++;
    } else {
      if (headerRow(line)?.[1]?.toLowerCase() !== "from") continue;
      // Unmarked: the block must start a paragraph.
      if (i > 0 && unquote(lines[i - 1]!).text.trim() !== "") continue;
    }
    const read = readHeaders(lines, start, marked);
    if (!read) continue;
    const rest = lines.slice(read.end);
    while (rest.length > 0 && unquote(rest[0]!).text.trim() === "") rest.shift();
    let levels = read.depth;
    if (levels === 0) {
      const nonEmpty = rest.filter((l) => l.trim() !== "");
      if (nonEmpty.length > 0 && nonEmpty.every((l) => unquote(l).depth > 0)) levels = 1;
    }
    return { headers: read.headers, body: stripQuotes(rest, levels).join("\n").trim() };
  }
  return null;
}

/** The innermost forwarded block (a forward of a forward), or null. */
export function innermostForwardBlock(text: string): ForwardBlock | null {
  let found: ForwardBlock | null = null;
  let body = text;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const block = findForwardBlock(body);
    if (!block) break;
    found = block;
    body = block.body;
  }
  return found;
}

/** Name and address of a printed sender: `Name <a@b>`, `Name [mailto:a@b]`, `"Name" a@b`, `a@b`. */
export function printedSender(value: string): { name: string; address: string } {
  const v = value.slice(0, 500).replace(/mailto:/gi, "");
  const addr =
    /<\s*([^<>\s@]+@[^<>\s]+?)\s*>|\[\s*([^[\]\s@]+@[^[\]\s]+?)\s*\]|([^\s<>[\]()"',;:*]+@[^\s<>[\]()"',;:*]+)/.exec(
      v,
    );
  const address = (addr?.[1] ?? addr?.[2] ?? addr?.[3] ?? "").toLowerCase().replace(/\.+$/, "");
  const name = (addr ? v.slice(0, addr.index) : v).replace(/[*"']/g, "").replace(/\s+/g, " ").trim();
  return { name: name === address ? "" : name, address };
}

/**
 * The email as the forwarded alert: sender, subject, date and body from the innermost block.
 * The block's date is normalized to an RFC 5322 header in UTC (a printed zone is honoured, a naive
 * one is wall time in `timeZone`); an unreadable date keeps the outer header. Recipient fields stay
 * the envelope's. Without a block the email is returned unchanged.
 */
export function unwrapForward(email: ParsedEmail, timeZone: string): ParsedEmail {
  const block = innermostForwardBlock(email.text);
  if (!block) return email;
  const sender = printedSender(block.headers.get("from") ?? "");
  if (!sender.address && !sender.name) return email;
  const printedDate = block.headers.get("date") || block.headers.get("sent") || null;
  const instant = parseForwardedDate(printedDate, timeZone);
  return {
    ...email,
    fromName: sender.name,
    fromEmail: sender.address,
    subject: block.headers.get("subject") ?? email.subject,
    dateHeader: instant ? rfc5322Utc(instant) : email.dateHeader,
    text: block.body,
    forwardedBy: {
      fromEmail: email.fromEmail,
      subject: email.subject,
      dateHeader: email.dateHeader,
      printedDate,
    },
  };
}
