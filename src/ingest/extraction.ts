/**
 * AI extraction fallback: one forced `extract_transaction` call, then validation that fails
 * closed. The amount must appear verbatim in the body (a currency sign and thousands commas
 * are tolerated); the company must be a case-insensitive substring of the body once whitespace
 * is collapsed on both sides.
 */
import { type AiProvider, asAiError } from "../ai/provider";
import { extractTransactionTool } from "../ai/tools";
import { type Cents, parseCents, toCents } from "../lib/money";
import { ALERT_TYPES } from "../lib/transaction-types";

export interface Extracted {
  amount_cents: Cents;
  company: string | null;
  transaction_type: (typeof ALERT_TYPES)[number];
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?$/;
const PLAIN = /^\d+(?:\.\d{1,2})?$/;

/** Integer cents of every amount-looking token in the text (pure; exact, from the digits). */
export function amountsInText(text: string): Set<Cents> {
  const out = new Set<Cents>();
  for (const m of text.matchAll(/\d[\d,]*(?:\.\d+)?/g)) {
    const token = m[0].replace(/,+$/, "");
    if (!GROUPED.test(token) && !PLAIN.test(token)) continue;
    const cents = parseCents(token);
    if (cents !== null && Number.isSafeInteger(cents)) out.add(cents);
  }
  return out;
}

/** The model's amount (a decimal number, or the text it copied) in cents, or why it is unusable. */
export function modelCents(value: unknown): { cents: Cents } | { reason: string } {
  const missing = { reason: "amount missing or not positive" };
  if (typeof value === "string") {
    const cents = parseCents(value.replace(/[$\s]/g, ""));
    return cents !== null && cents > 0 ? { cents } : missing;
  }
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return missing;
  const cents = toCents(value);
  // More than two decimals: the model did not copy an amount as printed.
  if (Math.abs(cents - value * 100) > 1e-6 * Math.max(1, value)) {
    return { reason: "amount has more than two decimals" };
  }
  return { cents };
}

export type ValidationResult = { ok: true; value: Extracted } | { ok: false; reason: string };

/** Validates raw tool arguments against the body (pure). */
export function validateExtraction(body: string, args: Record<string, unknown>): ValidationResult {
  const amount = modelCents(args.amount);
  if ("reason" in amount) return { ok: false, reason: amount.reason };
  const { cents } = amount;
  if (!amountsInText(body).has(cents)) return { ok: false, reason: "amount does not appear in the email" };
  const type = args.transaction_type;
  if (typeof type !== "string" || !(ALERT_TYPES as readonly string[]).includes(type)) {
    return { ok: false, reason: "transaction type is not one of the known types" };
  }
  const rawCompany = typeof args.company === "string" ? args.company.replace(/\s+/g, " ").trim() : "";
  if (rawCompany && !collapse(body).includes(rawCompany.toLowerCase())) {
    return { ok: false, reason: "company does not appear in the email" };
  }
  return {
    ok: true,
    value: {
      amount_cents: cents,
      company: rawCompany || null,
      transaction_type: type as Extracted["transaction_type"],
    },
  };
}

export type ExtractionOutcome =
  | { ok: true; value: Extracted }
  | { ok: false; stage: "ai_extraction_failed" | "ai_validation_failed"; reason: string };

export async function extractWithAi(
  ai: AiProvider,
  email: { subject: string; fromEmail: string; text: string },
): Promise<ExtractionOutcome> {
  let args: Record<string, unknown>;
  try {
    args = await ai.callTool({
      system:
        "You read bank and card alert emails. Extract the one transaction the email reports, copying " +
        "the amount and the merchant or recipient exactly as written.",
      user: `From: ${email.fromEmail}\nSubject: ${email.subject}\n\n${email.text.slice(0, 8000)}`,
      tool: extractTransactionTool,
      timeoutMs: 20_000,
    });
  } catch (err) {
    const e = asAiError(err);
    return { ok: false, stage: "ai_extraction_failed", reason: `${e.kind}: ${e.message}` };
  }
  const v = validateExtraction(email.text, args);
  return v.ok ? v : { ok: false, stage: "ai_validation_failed", reason: v.reason };
}
