/**
 * What the receiving side vouches for: trust in an email comes only from headers the
 * receiving server added and from the envelope, never from headers the sender can write.
 * - The receiver's verdict is the TOPMOST Authentication-Results whose authserv-id is one of the
 *   configured receiving servers (`receiving_authserv_ids`, Cloudflare's by default): a receiver
 *   prepends its own above whatever the message carried, so a forged one further down never counts.
 * - An ARC set's verdict on the bank's message (its first hop, i=1) counts only when the receiver
 *   says the chain passed (`arc=pass`) and that hop was sealed (ARC-Seal d=) by a sealer the owner
 *   lists (`arc_trusted_sealers`, default none); a made-up `i=0`, a duplicate instance or an
 *   unlisted sealer is ignored.
 * - A hand forward's sender is verified when the From header names one mailbox and the receiver
 *   says DMARC passed for its domain, or the envelope sender is that address and SPF passed.
 */
import type { ParsedEmail } from "./mime";
import type { IngestSettings } from "./types";

export const DEFAULT_RECEIVERS = ["mx.cloudflare.net"];

const authservId = (value: string) => /^\s*([^\s;]+)/.exec(value)?.[1]?.toLowerCase() ?? "";

/** One method's result and properties in an Authentication-Results value (the first of that method). */
function method(value: string, name: string): { result: string; props: Map<string, string> } | null {
  for (const part of value.split(";").slice(1)) {
    const m = /^\s*([a-z0-9-]+)\s*=\s*([a-z]+)/i.exec(part);
    if (m?.[1]?.toLowerCase() !== name) continue;
    const props = new Map<string, string>();
    for (const p of part.matchAll(/([a-z]+\.[a-z-]+)\s*=\s*("[^"]*"|[^\s;]+)/gi)) {
      props.set(p[1]!.toLowerCase(), p[2]!.replace(/"/g, "").toLowerCase());
    }
    return { result: m[2]!.toLowerCase(), props };
  }
  return null;
}

/** The receiving server's own Authentication-Results value, or null when it added none. */
export function receiverResults(email: ParsedEmail, settings: Pick<IngestSettings, "receivingAuthservIds">) {
  const ids = settings.receivingAuthservIds ?? DEFAULT_RECEIVERS;
  return (email.authResults ?? []).find((r) => !r.startsWith("arc:") && ids.includes(authservId(r))) ?? null;
}

const instance = (value: string) => {
  const m = /^\s*i\s*=\s*(\d{1,2})\s*;/.exec(value);
  return m ? Number(m[1]) : null;
};

/** The first ARC hop's results, when the receiver passed the chain and a listed sealer sealed it. */
function honouredArc(email: ParsedEmail, receiver: string, sealers: string[]): string | null {
  if (sealers.length === 0 || method(receiver, "arc")?.result !== "pass") return null;
  const results = (email.authResults ?? []).filter((r) => r.startsWith("arc:")).map((r) => r.slice(4));
  const seals = email.arcSeals ?? [];
  const first = results.filter((r) => instance(r) === 1);
  const sealed = seals.filter((s) => instance(s) === 1);
  if (first.length !== 1 || sealed.length !== 1) return null;
  if (results.some((r) => (instance(r) ?? 0) < 1)) return null;
  const d = /(?:^|;)\s*d\s*=\s*([^\s;]+)/i.exec(sealed[0]!)?.[1]?.toLowerCase() ?? "";
  return sealers.includes(d) ? first[0]! : null;
}

/**
 * The verdicts the authentication check may read: the receiver's, preceded by the honoured first
 * ARC hop's (prefixed `arc:`); empty when the receiver added none.
 */
export function receivedVerdicts(
  email: ParsedEmail,
  settings: Pick<IngestSettings, "receivingAuthservIds" | "arcTrustedSealers">,
): string[] {
  const receiver = receiverResults(email, settings);
  if (!receiver) return [];
  const arc = honouredArc(email, receiver, settings.arcTrustedSealers ?? []);
  return arc ? [`arc:${arc}`, receiver] : [receiver];
}

const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/** Whether the receiving side vouches for the message's From address (see the module comment). */
export function senderVerified(
  email: ParsedEmail,
  settings: Pick<IngestSettings, "receivingAuthservIds" | "envelopeFrom">,
): boolean {
  const address = email.fromEmail.toLowerCase();
  if (!address || (email.fromMailboxes ?? 1) !== 1) return false;
  const receiver = receiverResults(email, settings);
  if (!receiver) return false;
  const dmarc = method(receiver, "dmarc");
  const headerFrom = dmarc?.props.get("header.from");
  if (dmarc?.result === "pass" && (!headerFrom || headerFrom === domainOf(address))) return true;
  const spf = method(receiver, "spf");
  const mailFrom = spf?.props.get("smtp.mailfrom");
  return (
    settings.envelopeFrom?.toLowerCase() === address &&
    spf?.result === "pass" &&
    (!mailFrom || mailFrom === address || mailFrom === domainOf(address))
  );
}
