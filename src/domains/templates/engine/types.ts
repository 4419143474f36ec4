/** The shape of a learned template: per value line, fixed text and typed slots. */
import type { Cents } from "../../../lib/money";

/**
 * `num` is any other number on a value line (card digits, a balance): never read, only skipped.
 * `wild` is text that changes from alert to alert (a card name, a location), at most `max`
 * characters (`opt`: or nothing, where one example had text the other had not); `sp` is one space or one line break (two examples broke the line differently).
 * Neither is ever read.
 */
export type SlotKind = "amount" | "merchant" | "date" | "time" | "num" | "wild" | "sp";

export type Token = { lit: string } | { slot: SlotKind; max?: number; opt?: boolean };

/**
 * One block of consecutive value lines (joined by "\n" literals). `before` is the line above it,
 * required when the block has no fixed words of its own (an HTML cell "TIM HORTONS" under a cell
 * "Merchant").
 */
export interface PatternLine {
  before: Token[] | null;
  line: Token[];
}

/** How the example printed its amount: decimal mark, thousands mark, whether cents were printed. */
export interface AmountFormat {
  decimal: "." | ",";
  group: "," | "." | " " | "’" | "'" | "";
  cents: boolean;
}

export interface TemplatePattern {
  version: 1;
  /** Every line holding a value, whitespace-collapsed; each must match exactly one body line. */
  lines: PatternLine[];
  amount: AmountFormat;
  /** The date format id (dates.ts); null: the email's sent date is the transaction's. */
  date: string | null;
  /**
   * Learned from the email unwrapped (text.ts `unwrapText`): the bank wraps its plain text at a
   * fixed width and a value ran over a line break. Every email is then read unwrapped.
   */
  unwrap?: boolean;
  /**
   * The field labels of the learned email(s) ("Amount:", "Název protistrany:"), lowercased: when
   * an alert's layout changed and it is read by its anchors (anchors.ts), a merchant ends where
   * another field begins.
   */
  labels?: string[];
  /** The quarantined emails (parse-failure ids) it was learned from: a merge re-reads them. */
  sources?: string[];
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
