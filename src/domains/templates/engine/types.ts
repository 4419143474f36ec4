/** The shape of a learned template (per value line, fixed text and typed slots), as stored. */
import { z } from "zod";
import type { Cents } from "../../../lib/money";

/**
 * `num` is any other number on a value line (card digits, a balance): never read, only skipped.
 * `wild` is text that changes from alert to alert (a card name, a location), at most `max`
 * characters (`opt`: or nothing, where one example had text the other had not); `sp` is one space
 * or one line break (two examples broke the line differently). Neither is ever read.
 */
const slotKind = z.enum(["amount", "merchant", "date", "time", "num", "wild", "sp"]);
export type SlotKind = z.infer<typeof slotKind>;

const token = z.union([
  z.object({ lit: z.string() }),
  z.object({ slot: slotKind, max: z.number().optional(), opt: z.boolean().optional() }),
]);
export type Token = z.infer<typeof token>;

/**
 * One block of consecutive value lines (joined by "\n" literals). `before` is the line above it,
 * required when the block has no fixed words of its own (an HTML cell "TIM HORTONS" under a cell
 * "Merchant").
 */
const patternLine = z.object({ before: z.array(token).nullable(), line: z.array(token) });
export type PatternLine = z.infer<typeof patternLine>;

/** How the example printed its amount: decimal mark, thousands mark, whether cents were printed. */
const amountFormat = z.object({
  decimal: z.enum([".", ","]),
  group: z.enum([",", ".", " ", "’", "'", ""]),
  cents: z.boolean(),
});
export type AmountFormat = z.infer<typeof amountFormat>;

export const templatePattern = z.object({
  version: z.literal(1),
  /** Every line holding a value, whitespace-collapsed; each must match exactly one body line. */
  lines: z.array(patternLine),
  amount: amountFormat,
  /** The date format id (dates.ts); null: the email's sent date is the transaction's. */
  date: z.string().nullable(),
  /**
   * Learned from the email unwrapped (text.ts `unwrapText`): the bank wraps its plain text at a
   * fixed width and a value ran over a line break. Every email is then read unwrapped.
   */
  unwrap: z.boolean().optional(),
  /**
   * The field labels of the learned email(s) ("Amount:", "Název protistrany:"), lowercased: when
   * an alert's layout changed and it is read by its anchors (anchors.ts), a merchant ends where
   * another field begins.
   */
  labels: z.array(z.string()).optional(),
  /** The quarantined emails (parse-failure ids) it was learned from: a merge re-reads them. */
  sources: z.array(z.string()).optional(),
});
export type TemplatePattern = z.infer<typeof templatePattern>;

/** What a template reads from an email. */
export interface Extracted {
  amount: Cents;
  merchant: string;
  /** YYYY-MM-DD when the body prints the date. */
  date: string | null;
  /** HH:MM (24 h) when the body prints the time of day. */
  time: string | null;
}
