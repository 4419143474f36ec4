/** Line handling shared by derivation and matching (both must see the same text). */

/** The body's non-empty lines, whitespace collapsed (NBSP and narrow NBSP included). */
export function bodyLines(body: string): string[] {
  return body
    .split(/\r?\n/)
    .map((l) => l.replace(/[\s\u00a0\u202f]+/g, " ").trim())
    .filter((l) => l !== "");
}

/**
 * A plain-text alert wrapped at a fixed width, unwrapped: a line that does not end a sentence or a
 * label (`.` `:` `!` `?` `;`) is joined to the next with a space, so a merchant or a sentence the
 * bank's line width broke ("… en AMZN" / "Mktp US …, por $ 109.90.") is one line again. Blank
 * lines stay (paragraphs are never joined), so unwrapping twice changes nothing.
 */
export function unwrapText(body: string): string {
  const out: string[] = [];
  let cur = "";
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.replace(/[\s\u00a0\u202f]+/g, " ").trim();
    if (line === "") {
      if (cur) out.push(cur);
      out.push("");
      cur = "";
    } else if (cur && !/[.:!?;]$/.test(cur)) cur = `${cur} ${line}`;
    else {
      if (cur) out.push(cur);
      cur = line;
    }
  }
  if (cur) out.push(cur);
  return out.join("\n");
}

export const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Host part of a From value ("Bank <a@b.ca>" or "a@b.ca"), lowercased; null when there is none. */
export function senderHost(fromEmail: string | null | undefined): string | null {
  if (typeof fromEmail !== "string") return null;
  const address = /<([^<>]*)>/.exec(fromEmail)?.[1] ?? fromEmail;
  const at = address.lastIndexOf("@");
  if (at < 0) return null;
  const host = address
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.+$/, "");
  return /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/.test(host) ? host : null;
}

export const hostMatches = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** Lowercased words of a subject, letters only (numbers and amounts vary from email to email). */
export function subjectWords(subject: string): string[] {
  return [...new Set(subject.toLowerCase().match(/\p{L}{2,}/gu) ?? [])];
}

/** "alerts.maplecu.example" → "Maplecu": a bank's name until the person gives one. */
export function nameFromHost(host: string): string {
  const parts = host.split(".");
  const label = parts.length > 1 ? (parts.at(-2) ?? host) : host;
  return label.charAt(0).toUpperCase() + label.slice(1);
}
