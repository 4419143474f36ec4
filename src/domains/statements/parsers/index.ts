/**
 * Statement PDF → rows. The parser is chosen by SPEC.md's rule (Simplii markers on the first two
 * pages select the second parser, otherwise the first); both run the shared layout engine with
 * their own institution name, and the balance column checks every parse. Pure over the text items.
 */
import type { Cents } from "../../../lib/money";
import { assemble, type DocumentReading, documentReading, summaryAmount } from "./assemble";
import type { BalanceCheck } from "./balance";
import type { CsvMapping, CsvPreviewRow, SignReading } from "./csv";
import {
  CLOSING,
  type LayoutResult,
  type LayoutRow,
  type Line,
  OPENING,
  readTable,
  settleSigns,
  toLines,
} from "./layout";
import type { PdfText } from "./pdf-text";

export type StatementType = "withdrawal" | "deposit";

export interface StatementRow {
  /** YYYY-MM-DD */
  date: string;
  /** As printed (wrapped lines joined with a space). */
  description: string;
  amount: Cents;
  type: StatementType;
  balance: Cents | null;
  /** OFX/QFX transaction id (the synthetic key hashes it instead of the description). */
  fitid?: string | null;
}

export interface ParsedStatement {
  institution: string;
  account_type: string;
  /** Which account of a multi-account file (OFX, QIF, CAMT): its name or the last digits of its id. */
  account?: string | null;
  period_start: string | null;
  period_end: string | null;
  parsed_with_ai: boolean;
  rows: StatementRow[];
  balance: BalanceCheck;
  /** The taught PDF layout that read the rows (statement_layouts.id). */
  layout_id?: string;
  /** A PDF no rule reads but whose text holds a table: the review opens the page to mark its columns. */
  needs_layout?: boolean;
  /** A CSV's header and the column mapping it was read with. */
  csv?: {
    header: string[];
    mapping: CsvMapping;
    /** The first rows as read with the mapping (dates and signed amounts), for the mapping form. */
    preview?: CsvPreviewRow[];
    /** Why the header was refused (no rows were read): the mapping form opens on it. */
    refused?: string;
    /** How the signed amounts were read (as printed or as a card's) and why, when the reader decided it. */
    sign?: SignReading;
  };
}

export type ParseOutcome =
  | { ok: true; statement: ParsedStatement }
  | { ok: false; reason: "scanned" | "not_a_statement" | "ai_validation_failed"; message: string };

/** A text file's statements (one per account), or a refusal in words. */
export type FileOutcome =
  | { ok: true; statements: ParsedStatement[] }
  | { ok: false; reason: "not_a_statement"; message: string };

export const notStatement = (message: string) => ({ ok: false, reason: "not_a_statement", message }) as const;

/** Names a bank printed on the statement, for parsers that also read other banks' layouts. */
const KNOWN: [RegExp, string][] = [
  [/simplii/i, "Simplii"],
  [/royal bank|\bRBC\b/i, "RBC"],
  [/\bCIBC\b|imperial bank of commerce/i, "CIBC"],
  [/\bTD\b|toronto-dominion|td canada trust/i, "TD"],
  [/\bBMO\b|bank of montreal/i, "BMO"],
  [/scotiabank|bank of nova scotia/i, "Scotiabank"],
  [/tangerine/i, "Tangerine"],
  [/pc financial|president'?s choice/i, "PC Financial"],
  [/desjardins/i, "Desjardins"],
  [/national bank/i, "National Bank"],
  [/\bEQ Bank\b/i, "EQ Bank"],
];

/**
 * The bank a statement's text names (the issuer of a statement, not an alert's sender: see
 * ingest/institutions). SPEC.md's selection rule first: Simplii when its name or a `trans.` header
 * word is on page 1 or 2.
 */
function statementInstitution(text: PdfText, fullText: string): string {
  const early = text.items
    .filter((i) => i.page <= 2)
    .map((i) => i.str)
    .join(" ");
  if (/simplii/i.test(early) || /(^|\s)trans\.(\s|$)/i.test(early)) return "Simplii";
  return KNOWN.find(([re]) => re.test(fullText))?.[1] ?? "Other";
}

export function accountTypeOf(text: string): string {
  if (
    /chequing|checking|banking\s*account|current\s*account|girokonto|kontoauszug|compte\s*courant|cuenta\s*corriente|conto\s*corrente|betaalrekening/i.test(
      text,
    )
  )
    return "chequing";
  if (/savings\s*account|savings\s*statement/i.test(text)) return "savings";
  // "Visa Debit" purchases appear on chequing statements: only a card named without "debit" counts.
  if (/credit\s*card|(visa|mastercard|american express)(?!\s*debit)/i.test(text)) return "credit_card";
  return "chequing";
}

/** Minimum characters of text for a PDF to count as text (below: a scan). */
const MIN_TEXT_CHARS = 40;

export function parseStatementText(text: PdfText, fallbackYear: number): ParseOutcome {
  const full = text.items.map((i) => i.str).join(" ");
  if (full.replace(/\s/g, "").length < MIN_TEXT_CHARS) {
    return {
      ok: false,
      reason: "scanned",
      message:
        "The PDF holds no readable text (a scanned image?); upload the bank's text PDF or a CSV/OFX export",
    };
  }
  const doc = documentReading(text);
  const lines = toLines(text.items);
  const table = readTable(lines, doc);
  if (!table.headerFound || table.rows.length === 0) {
    return {
      ok: false,
      reason: "not_a_statement",
      message:
        "No transaction table (date, description, withdrawal/deposit and balance columns) was found in this PDF",
    };
  }
  const printed = printedBalances(lines, doc, table);
  return {
    ok: true,
    statement: tableStatement(table, doc, printed, fallbackYear, statementInstitution(text, full)),
  };
}

/** A PDF table's rows settled (signs, years, the balance check) into the statement of `institution`. */
export function tableStatement(
  table: { rows: LayoutRow[]; signedColumn: boolean },
  doc: DocumentReading,
  printed: Parameters<typeof assemble>[2],
  fallbackYear: number,
  institution: string,
): ParsedStatement {
  const account_type = accountTypeOf(doc.full);
  // On a card statement a positive amount is a purchase (money owed goes up), a credit is a payment.
  const owed = account_type === "credit_card";
  settleSigns(table, owed, printed.opening);
  const out = assemble(table.rows, doc, printed, owed, fallbackYear);
  return {
    institution,
    account_type,
    period_start: out.period_start,
    period_end: out.period_end,
    parsed_with_ai: false,
    rows: out.rows,
    balance: out.balance,
  };
}

/** Opening, closing and the printed totals: from the table when it printed them, else the summary boxes. */
export function printedBalances(
  lines: readonly Line[],
  doc: DocumentReading,
  table: { opening: LayoutResult["opening"]; closing: LayoutResult["closing"] },
) {
  const summary = (re: RegExp) => summaryAmount(lines, re, doc.decimal);
  return {
    opening: table.opening ?? summary(OPENING),
    closing: table.closing && !table.closing.truncated ? table.closing : (summary(CLOSING) ?? table.closing),
    totalIn:
      summary(/total\s*(deposits|funds\s*in|credits)|summe\s*zahlungseing|total\s*des\s*crédits/i)?.cents ??
      null,
    totalOut:
      summary(/total\s*(withdrawals|funds\s*out|debits)|summe\s*zahlungsausg|total\s*des\s*débits/i)?.cents ??
      null,
  };
}
