/**
 * Rows that move money between the person's own accounts, or pay a card from an account: importing
 * them as spending or income would count the same money twice. A new row looks like a transfer when
 * its words say so (transfer, virement, Überweisung, Umbuchung, transferencia, bonifico…; a card
 * payment: "payment thank you", "autopay", a payment naming a card or the statement's own bank), when
 * it is a payment on a card statement, or when another account's statement holds an equal and
 * opposite amount within 3 days. Such rows default to skip, with the reason in words. An Interac
 * e-transfer pays another person and is not one. Pure.
 */
import { type Cents, plainCents } from "../../lib/money";
import { dayNo } from "./parsers/dates";

const TRANSFER_WORDS =
  /\b(transfer|xfer|tfr|virement|vir\.?\s|überweisung|ueberweisung|umbuchung|übertrag|transferencia|traspaso|bonifico|giroconto|girokonto\s*übertrag|overboeking|transferência)\b/i;
const PEER_PAYMENT = /e-?transfer|interac|zelle|venmo|paypal|bizum|transferwise/i;
/** The same words in a description whose spaces a PDF's text lost ("MiscPayment CREDITCARD", "SAVINGSTRANSFER"). */
const GLUED_CARD_PAYMENT =
  /(payment|pmt|paiement|pago).{0,24}(creditcard|visa|mastercard|amex|americanexpress)|(creditcard|visa|mastercard|amex)(bill)?(payment|pmt)/;
const SAVINGS = /savings|epargne|sparkonto|sparen|ahorro|risparmi|spaarrekening|poupanca/;
const MOVE = /transfer|xfer|tfr|payment|pmt|deposit|withdrawal|virement|ubertrag|umbuchung|traspaso/;
/** A transfer to or from another person ("Online transfer sent - 5027 JORDAN MILLER"): not between own accounts. */
const PEER_GLUED = /etransfer|interac|transfer(sent|received|recv)/;
const CARD_PAYMENT =
  /payment\s*[-–]?\s*(thank\s*you|received|recu|reçu)|thank\s*you\s*(for\s*your\s*)?payment|autopay|auto\s*pay|(credit\s*)?card\s*payment|paiement\s*(carte|reçu|merci)|pago\s*(de\s*)?(tarjeta|recibido)|\bpayment\b.*\b(visa|mastercard|master\s*card|amex|american express|card)\b|\b(visa|mastercard|amex)\b.*\bpayment\b/i;

export interface TransferInput {
  date: string;
  amount: Cents;
  type: "withdrawal" | "deposit";
  description: string;
}

export interface Counterpart {
  date: string;
  amount: Cents;
  type: string;
  institution: string;
  account_type: string;
}

export const TRANSFER_DAYS = 3;

/** Why this row looks like a transfer between own accounts or a card payment, or null. */
export function transferReason(
  row: TransferInput,
  statement: { institution: string; account_type: string },
  others: readonly Counterpart[],
): string | null {
  const d = row.description;
  const twin = others.find(
    (o) =>
      o.amount === row.amount &&
      o.type !== row.type &&
      Math.abs(dayNo(o.date) - dayNo(row.date)) <= TRANSFER_DAYS &&
      !(o.institution === statement.institution && o.account_type === statement.account_type),
  );
  if (twin) {
    return `Looks like a transfer: ${twin.institution} ${twin.account_type.replace("_", " ")} shows the opposite ${plainCents(row.amount)} on ${twin.date}`;
  }
  if (CARD_PAYMENT.test(d)) return "Looks like a card payment (money moved between your own accounts)";
  if (
    statement.account_type === "credit_card" &&
    row.type === "deposit" &&
    /\bpayment|paiement|pago|zahlung\b/i.test(d)
  ) {
    return "A payment on a card statement: the money came from another of your accounts";
  }
  const bank = statement.institution.trim();
  if (bank && bank !== "Other" && /\bpayment\b/i.test(d) && d.toLowerCase().includes(bank.toLowerCase())) {
    return `A payment to ${bank}, the statement's own bank (a card or loan payment)`;
  }
  if (TRANSFER_WORDS.test(d) && !PEER_PAYMENT.test(d)) {
    return "Looks like a transfer between your own accounts (the description says so)";
  }
  const glued = d.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
  if (GLUED_CARD_PAYMENT.test(glued) && !/debit/.test(glued))
    return "Looks like a card payment (money moved between your own accounts)";
  if (SAVINGS.test(glued) && MOVE.test(glued))
    return "Looks like a move to or from savings (money between your own accounts)";
  if (/transfer|xfer/.test(glued) && !PEER_GLUED.test(glued) && !PEER_PAYMENT.test(d))
    return "Looks like a transfer between your own accounts (the description says so)";
  return null;
}
