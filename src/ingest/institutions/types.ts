/** The contract between the pipeline and the institution parsers (pure functions of the text). */
import type { Cents } from "../../lib/money";
import type { TransactionType } from "../../lib/transaction-types";

export type { TransactionType } from "../../lib/transaction-types";

/** What a parser extracts. A parser that recognizes nothing returns null fields. */
export interface ParsedFields {
  /** Integer cents, read exactly from the printed amount. */
  amount: Cents | null;
  company: string | null;
  name: string | null;
  transaction_type: TransactionType | null;
}

export interface Institution {
  /** Stored name, exactly as the fixtures spell it: "RBC", "CIBC", "MBNA", "Simplii", "PC Financial". */
  name: string;
  /** Sender domains (phase 1 of detection). The Interac e-transfer domain is never listed. */
  domains: string[];
  /** Body markers (phase 2), tried in the registry's fixed order. */
  bodyMarkers: RegExp[];
  /**
   * The transaction types its parser can read. An Interac e-Transfer notice that names an
   * institution without "e-transfer" here found no parser (no_parser_match), rather than a parser
   * that read nothing (extraction_empty).
   */
  kinds: readonly TransactionType[];
  /** Never throws; returns null fields for text it does not recognize. */
  parse(text: string): ParsedFields;
}
