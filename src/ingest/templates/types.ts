/** The shape of a learned template: per value line, fixed text and typed slots. */
import type { Cents } from "../../lib/money";

/** `num` is any other number on a value line (card digits, a balance): never read, only skipped. */
export type SlotKind = "amount" | "merchant" | "date" | "time" | "num";

export type Token = { lit: string } | { slot: SlotKind };

/**
 * One value line. `before` is the line above it, required when the value line has no fixed words
 * of its own (an HTML cell "TIM HORTONS" under a cell "Merchant").
 */
export interface PatternLine {
  before: Token[] | null;
  line: Token[];
}

/** How the example printed its amount: decimal mark, thousands mark, whether cents were printed. */
export interface AmountFormat {
  decimal: "." | ",";
  group: "," | "." | " " | "";
  cents: boolean;
}

export interface TemplatePattern {
  version: 1;
  /** Every line holding a value, whitespace-collapsed; each must match exactly one body line. */
  lines: PatternLine[];
  amount: AmountFormat;
  /** The date format id (dates.ts); null: the email's sent date is the transaction's. */
  date: string | null;
}

/** What a template reads from an email. */
export interface Extracted {
  amount: Cents;
  merchant: string;
  /** YYYY-MM-DD when the body prints the date. */
  date: string | null;
  /** HH:MM (24 h) when the body prints the time of day. */
  time: string | null;
}
