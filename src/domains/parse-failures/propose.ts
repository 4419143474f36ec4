/**
 * The model's reading of an alert no template reads, checked against the email's own text (pure).
 * The model answers the values a person would type in the resolve form; each is kept only when the
 * email prints it: the amount standing alone in any form the templates read, the date in any format
 * they read (or, when the email prints none, the day it was sent), the merchant word for word
 * (case, accents and spacing aside), a currency only when it is printed. Anything else refuses the
 * whole reading with the reason in words: a proposal is never partly the model's invention.
 */
import { z } from "zod";
import type { ToolSpec } from "../../ai/provider";
import { findAmounts } from "../../ingest/amounts";
import { currencyOfMark, MINOR_UNITS } from "../../ingest/currencies";
import { modelCents } from "../../ingest/extraction";
import { datesIn, findDate, findTime, readTime } from "../templates/engine/dates";
import { matchText } from "../templates/engine/match";
import { findTyped } from "../templates/engine/merchant-span";
import { unwrapText } from "../templates/engine/text";
import type { Cents } from "../../lib/money";
import { TRANSACTION_TYPES, type TransactionType } from "../../lib/transaction-types";
import { unseenValues } from "./rules";

/** At most this much of the body goes to the model. */
const MAX_PROMPT_CHARS = 8_000;

export const proposeAlertTool: ToolSpec = {
  name: "read_alert_values",
  description:
    "Read the one transaction a bank or card alert email reports, as a person would type it in: copy the " +
    "merchant or payee exactly as printed, and give the amount, currency and date the email prints.",
  parameters: {
    type: "object",
    properties: {
      amount: { type: "number", description: "The transaction's amount as printed, a decimal number" },
      currency: {
        type: ["string", "null"],
        description: "ISO 4217 code of the currency printed beside the amount; null when none is printed",
      },
      date: {
        type: ["string", "null"],
        description: "The transaction's date as YYYY-MM-DD, from the date the email prints; null when none",
      },
      time: { type: ["string", "null"], description: "HH:MM (24 h) printed with that date; null when none" },
      merchant: {
        type: ["string", "null"],
        description: "The merchant, payee or counterparty, copied exactly as the email prints it",
      },
      transaction_type: { type: "string", enum: [...TRANSACTION_TYPES] },
    },
    required: ["amount", "currency", "date", "time", "merchant", "transaction_type"],
    additionalProperties: false,
  },
};

export const PROPOSE_ALERT_SYSTEM =
  "You read one bank or card alert email that no template reads yet. Report the one transaction it " +
  "describes: the amount and currency printed beside it, the date of the transaction (not the day the " +
  "email was sent, unless it prints no other), the merchant or payee copied character for character, " +
  "and the type (money in is deposit or e-transfer; money out is purchase, withdrawal, preauth or " +
  "e-transfer-sent). Never invent a value the email does not print: use null instead.";

interface AlertEmail {
  fromEmail: string;
  subject: string;
  text: string;
  /** The day it was sent, YYYY-MM-DD in the configured zone. */
  sentIso: string;
}

/** The prompt: the sender, subject and sent day, then the body (bounded). */
export function proposalPrompt(e: AlertEmail): string {
  return `From: ${e.fromEmail}\nSubject: ${e.subject}\nSent: ${e.sentIso}\n\n${e.text.slice(0, MAX_PROMPT_CHARS)}`;
}

interface CheckedReading {
  amount: Cents;
  currency: string | null;
  date: string;
  /** The email prints no date: the reading takes the day it was sent. */
  dateIsSent: boolean;
  time: string | null;
  company: string;
  transactionType: TransactionType;
}

const Answer = z.object({
  amount: z.union([z.number(), z.string()]),
  currency: z.string().trim().max(10).nullish(),
  date: z.string().trim().max(40).nullish(),
  time: z.string().trim().max(20).nullish(),
  merchant: z.string().max(500).nullish(),
  transaction_type: z.enum(TRANSACTION_TYPES),
});

const ISO_DAY = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;

/** Whether the merchant is printed in the email (as the templates find a typed name), wrapped or not. */
function merchantPrinted(text: string, merchant: string): boolean {
  const plain = matchText(text);
  if (findTyped(plain.split("\n"), merchant).some((o) => o.wordEnd)) return true;
  return findTyped(matchText(unwrapText(text)).split("\n"), merchant).some((o) => o.wordEnd);
}

/**
 * The currency of the reading: the model's code only when the email prints it (beside this amount,
 * or as a code anywhere), else the one printed beside the amount; or why the model's is refused.
 */
function currencyOf(
  text: string,
  amount: Cents,
  said: string | null,
): { code: string | null } | { why: string } {
  const beside = new Set(
    findAmounts(text)
      .filter((a) => a.cents === amount && a.currency)
      .map((a) => a.currency as string),
  );
  if (!said) return { code: beside.size === 1 ? [...beside][0]! : null };
  const code = said.toUpperCase();
  if (!MINOR_UNITS.has(code) && currencyOfMark(said) === null)
    return { why: `the currency “${said}” is not a currency code` };
  const iso = MINOR_UNITS.has(code) ? code : (currencyOfMark(said) as string);
  if (beside.has(iso)) return { code: iso };
  if (beside.size > 0)
    return { why: `the email prints the amount in ${[...beside].join(" or ")}, not in ${iso}` };
  // A bare `$` or `kr` beside the amount: the code must be printed somewhere in the email.
  if (new RegExp(`(?<![\\p{L}])${iso}(?![\\p{L}])`, "iu").test(text)) return { code: iso };
  return { why: `the currency ${iso} is not printed in the email` };
}

type CheckResult = { ok: true; reading: CheckedReading } | { ok: false; why: string };

/** The model's answer checked value by value against the email's text. */
export function checkProposal(e: AlertEmail, args: Record<string, unknown>): CheckResult {
  const parsed = Answer.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      why: `the answer was not a reading of the alert (${issue?.path.join(".") || "answer"}: ${issue?.message ?? "invalid"})`,
    };
  }
  const a = parsed.data;
  const cents = modelCents(a.amount);
  if ("reason" in cents) return { ok: false, why: `it gave no usable amount (${cents.reason})` };
  const lines = matchText(e.text).split("\n");
  const printsDates = lines.some((l) => datesIn(l, e.sentIso).length > 0);
  const date = a.date ?? null;
  if (date !== null && !ISO_DAY.test(date)) return { ok: false, why: `its date “${date}” is not a day` };
  const day = date ?? e.sentIso;
  const unseen = unseenValues(e.text, e.sentIso, { amount: cents.cents, date: day });
  const amountUnseen = unseen.find((u) => u.field === "amount");
  if (amountUnseen) return { ok: false, why: amountUnseen.msg };
  // A date must be printed: the sent day counts only for an email that prints no date at all.
  if (
    date !== null &&
    !lines.some((l) => findDate(l, date, e.sentIso)) &&
    (printsDates || date !== e.sentIso)
  )
    return { ok: false, why: `the date ${date} does not appear in the email` };
  if (date === null && printsDates) return { ok: false, why: "it gave no date, but the email prints one" };
  const company = (a.merchant ?? "").replace(/\s+/g, " ").trim();
  if (!company) return { ok: false, why: "it named no merchant or payee" };
  if (company.length > 200 || !merchantPrinted(e.text, company))
    return { ok: false, why: `the merchant “${company.slice(0, 80)}” does not appear in the email` };
  const currency = currencyOf(e.text, cents.cents, a.currency?.trim() || null);
  if ("why" in currency) return { ok: false, why: currency.why };
  return {
    ok: true,
    reading: {
      amount: cents.cents,
      currency: currency.code,
      date: day,
      dateIsSent: date === null,
      time: printedTime(lines, a.time ?? null),
      company,
      transactionType: a.transaction_type,
    },
  };
}

/** The model's time when the email prints it (HH:MM); otherwise none (a time is never refused for). */
function printedTime(lines: string[], said: string | null): string | null {
  const want = said ? readTime(said) : null;
  if (!want) return null;
  for (const l of lines) {
    for (let at = 0, t = findTime(l, 0); t; t = findTime(l, at)) {
      if (readTime(l.slice(t.start, t.end)) === want) return want;
      at = t.end;
    }
  }
  return null;
}
