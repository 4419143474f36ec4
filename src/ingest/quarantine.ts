/**
 * Parse-failure quarantine: the relevance gate, the deterministic `pf_` id (from the raw bytes),
 * the upsert, and the once-per-institution-per-24h notice stamp. The gate never raises.
 */
import type { AiProvider } from "../ai/provider";
import { asAiError } from "../ai/provider";
import { detectAlertTool } from "../ai/tools";
import { z } from "zod";
import type { Db } from "../db";
import { storedJson } from "../db/json";
import { upsertFailure } from "../domains/parse-failures/queries";
import { log } from "../lib/log";
import { findAmounts } from "./amounts";
import { sha256Hex } from "./hash";
import type { ParsedEmail } from "./mime";
import type { FailureStage } from "./types";

/**
 * Words alerts use, by language. A word counts once however often it appears; an alert names at
 * least two (what happened and to which card or account). Matched on the lowercased text.
 */
const ALERT_WORDS: Record<string, string[]> = {
  en: [
    "transaction",
    "purchase",
    "withdrawal",
    "withdrawn",
    "deposit",
    "debited",
    "credited",
    "charged",
    "payment",
    "pre-authorized",
    "preauthorized",
    "e-transfer",
    "interac",
    "card ending",
    "account",
    "a/c",
    "alert",
    "spent",
    "authorized",
    "sent you",
    "transfer",
    "refund",
    "debit card",
    "credit card",
    "card",
    "paid",
    "received",
    "amount",
    "balance",
    "merchant",
  ],
  fr: [
    "achat",
    "retrait",
    "dépôt",
    "débit",
    "débité",
    "crédit",
    "crédité",
    "paiement",
    "virement",
    "carte se terminant",
    "compte",
    "alerte",
    "autorisé",
    "montant",
    "carte",
    "mouvement",
  ],
  es: [
    "compra",
    "cargo",
    "retiro",
    "transacción",
    "transaccion",
    "movimiento",
    "tarjeta",
    "cuenta",
    "pago",
    "transferencia",
    "depósito",
    "abono",
    "débito",
    "crédito",
    "terminada en",
    "terminación",
    "importe",
    "monto",
    "notificación",
    "aprobad",
  ],
  pt: [
    "transação",
    "transacao",
    "cartão",
    "cartao",
    "conta",
    "pagamento",
    "transferência",
    "saque",
    "aprovada",
    "valor",
    "pix",
    "débito",
    "crédito",
  ],
  de: [
    "umsatz",
    "zahlung",
    "kartenzahlung",
    "abbuchung",
    "lastschrift",
    "überweisung",
    "gutschrift",
    "konto",
    "karte",
    "betrag",
    "belastet",
    "buchung",
    "einkauf",
    "abgehoben",
  ],
  ja: ["利用", "引落", "振込", "入金", "出金", "口座", "カード", "金額", "返金", "デビット"],
  cs: [
    "transakce",
    "platba",
    "platby",
    "úhrada",
    "úhrady",
    "účet",
    "účtu",
    "částka",
    "částku",
    "zůstatek",
    "zaúčtován",
    "kartou",
    "výběr",
    "příchozí",
    "odchozí",
  ],
  // Slovak, also as banks print it without diacritics (Tatra banka's B-mail).
  sk: [
    "transakcia",
    "transakcie",
    "platba",
    "úhrada",
    "účet",
    "účte",
    "zostatok",
    "zostatku",
    "zaúčtovan",
    "kartou",
    "výber",
    "uctu",
    "ucte",
    "debet",
    "kredit",
    "znizeny",
    "zvyseny",
    "platobn",
  ],
  pl: [
    "transakcja",
    "transakcji",
    "płatność",
    "płatności",
    "przelew",
    "rachunek",
    "rachunku",
    "kwota",
    "kartą",
    "obciążenie",
    "uznanie",
    "wypłata",
    "saldo",
  ],
  hu: [
    "tranzakció",
    "vásárlás",
    "fizetés",
    "átutalás",
    "számla",
    "számlán",
    "összeg",
    "kártya",
    "terhelés",
    "jóváírás",
    "egyenleg",
  ],
  it: [
    "transazione",
    "pagamento",
    "acquisto",
    "bonifico",
    "addebito",
    "accredito",
    "importo",
    "prelievo",
    "conto corrente",
  ],
  nl: [
    "transactie",
    "betaling",
    "aankoop",
    "overboeking",
    "afschrijving",
    "bijschrijving",
    "rekening",
    "bedrag",
    "kaart",
    "opname",
  ],
  sv: ["transaktion", "betalning", "köp", "överföring", "belopp", "uttag", "insättning"],
  da: ["transaktion", "betaling", "køb", "overførsel", "beløb", "hævning", "indbetaling"],
  no: ["transaksjon", "betaling", "kjøp", "overføring", "beløp", "uttak", "innskudd"],
  tr: ["işlem", "harcama", "ödeme", "havale", "hesap", "tutar", "kartınız", "bakiye"],
  id: ["transaksi", "pembayaran", "pembelian", "rekening", "jumlah", "nominal", "kartu", "penarikan"],
  vi: ["giao dịch", "thanh toán", "chuyển khoản", "tài khoản", "số tiền", "thẻ", "số dư", "rút tiền"],
  th: ["รายการ", "ชำระ", "โอนเงิน", "บัญชี", "จำนวนเงิน", "บัตร", "ถอนเงิน", "ยอดเงิน"],
  ko: ["거래", "승인", "결제", "이체", "계좌", "금액", "카드", "출금", "입금", "잔액"],
  zh: [
    "交易",
    "消费",
    "消費",
    "支付",
    "付款",
    "转账",
    "轉帳",
    "账户",
    "帳戶",
    "金额",
    "金額",
    "信用卡",
    "提款",
    "入账",
    "余额",
    "餘額",
  ],
};
const KEYWORDS = [...new Set(Object.values(ALERT_WORDS).flat())];

/** What the AI-off rule saw: amounts (any currency, or labelled) and the distinct alert words. */
export function alertEvidence(text: string, subject = "") {
  const hay = `${subject}\n${text}`;
  const lower = hay.toLowerCase();
  return { amounts: findAmounts(hay).length, words: KEYWORDS.filter((k) => lower.includes(k)) };
}

/** AI-off capture rule (pure): an amount plus at least two distinct alert words. */
export function looksLikeAlert(text: string, subject = ""): boolean {
  const e = alertEvidence(text, subject);
  return e.amounts > 0 && e.words.length >= 2;
}

/** Why the AI-off rule let an email go, in words a person reads. */
export function ignoredInWords(reason: string, text: string, subject: string): string {
  if (reason === "classifier_no") return "The alert classifier said it is not a transaction alert.";
  const e = alertEvidence(text, subject);
  if (e.amounts === 0) return "No amount of money found in it.";
  if (e.words.length === 0) return "It names an amount but none of the words alerts use.";
  return `It names an amount but only one word alerts use ("${e.words[0]}").`;
}

export interface Relevance {
  relevant: boolean;
  reason: string;
  /** The classifier's answer when it ran: true, false, or null on error. */
  classifier: boolean | null;
}

/**
 * Relevant when an institution was detected (sender domain or body name), when the owner vouched
 * for the sender, when the AI-off rule fires, or when the alert classifier says yes; classifier
 * errors count as yes.
 */
export async function relevanceGate(
  email: ParsedEmail,
  institution: string | null,
  ai: AiProvider | null,
  knownSender = false,
): Promise<Relevance> {
  try {
    if (institution) return { relevant: true, reason: "institution_detected", classifier: null };
    // The owner said an email of this sender was a bank alert (the ignored-email list).
    if (knownSender) return { relevant: true, reason: "known_alert_sender", classifier: null };
    if (looksLikeAlert(email.text, email.subject))
      return { relevant: true, reason: "alert_keywords", classifier: null };
    if (!ai) return { relevant: false, reason: "not_a_transaction_alert", classifier: null };
    try {
      const args = await ai.callTool({
        system: "You classify emails. Answer whether this email is a bank or card transaction alert.",
        user: `From: ${email.fromEmail}\nSubject: ${email.subject}\n\n${email.text.slice(0, 4000)}`,
        tool: detectAlertTool,
        timeoutMs: 10_000,
      });
      const yes = args.is_transaction_alert === true;
      return { relevant: yes, reason: yes ? "classifier_yes" : "classifier_no", classifier: yes };
    } catch (err) {
      log("warn", "quarantine.classifier_failed", { error: asAiError(err).message });
      return { relevant: true, reason: "classifier_error", classifier: null };
    }
  } catch (err) {
    log("warn", "quarantine.gate_failed", { error: String(err) });
    return { relevant: true, reason: "gate_error", classifier: null };
  }
}

const failureId = async (input: string) => `pf_${(await sha256Hex(input)).slice(0, 24)}`;

/**
 * `pf_` + 24 hex of SHA-256 over the raw bytes' hash: redelivery of the same bytes upserts, while a
 * different email reusing a Message-ID gets its own row (and keeps its own raw).
 */
export const quarantineId = (rawSha256: string) => failureId(`raw:${rawSha256}`);

/** The id rows quarantined before raw-hash ids carried when their email had a Message-ID. */
export const messageIdQuarantineId = (messageId: string) =>
  failureId(`mid:${messageId.trim().toLowerCase()}`);

const readDetail = storedJson("parse_failures.detail", z.record(z.string(), z.unknown()), {
  value: () => ({}),
});

/** parse_failures.detail: an object (none or unreadable: empty, logged). */
export const readFailureDetail = (row: { detail: unknown }): Record<string, unknown> =>
  row.detail == null ? {} : readDetail(row.detail);

export interface FailureRow {
  id: string;
  stage: FailureStage;
  institution: string | null;
  email: ParsedEmail;
  rawKey: string | null;
  emailDate: string | null;
  detail: Record<string, unknown>;
}

/** The body kept with a row (a transaction or a parse failure). */
export const MAX_BODY = 100_000;

/**
 * The failure row's upsert (for a caller's batch): redelivery refreshes the stage and details but
 * keeps created_at and a dismissed status.
 */
export function failureStatement(db: Db, row: FailureRow, nowIso: string) {
  const e = row.email;
  return upsertFailure(
    db,
    row.id,
    {
      failure_stage: row.stage,
      institution: row.institution,
      forwarded_to: e.forwardedTo || null,
      from_name: e.fromName || null,
      from_email: e.fromEmail || null,
      to_email: e.toEmail || null,
      subject: e.subject || null,
      body: e.text.slice(0, MAX_BODY),
      email_date: row.emailDate,
      raw_key: row.rawKey,
      detail: row.detail,
      updated_at: nowIso,
    },
    nowIso,
  );
}
