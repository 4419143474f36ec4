/**
 * Validation of a model's receipt read (pure). It fails closed: merchant, date and total are
 * required; a text PDF's total must be printed in its text; line items that do not add up to the
 * total within 0.05 are dropped while the rest of the read stands.
 */
import { isCalendarDate } from "../../lib/calendar";
import {
  type Cents,
  fromCents,
  parseCents,
  plainCents,
  sumCents,
  toCents,
  withinCents,
  asCents,
} from "../../lib/money";

export const RECEIPT_SCHEMA_VERSION = 1;
const LINE_ITEM_TOLERANCE = asCents(5);

interface LineItem {
  description: string;
  amount: number;
}

interface ReceiptRead {
  merchant: string;
  /** YYYY-MM-DD */
  date: string;
  total: number;
  currency: string | null;
  line_items?: LineItem[];
  /** Why the model's line items were dropped, when they were. */
  line_items_dropped?: string;
}

type ReceiptCheck = { ok: true; read: ReceiptRead } | { ok: false; reason: string };

/** Every amount printed with cents in a text (tolerant of currency signs and thousands commas). */
export function amountsIn(text: string): Set<Cents> {
  const out = new Set<Cents>();
  for (const m of text.matchAll(/\d{1,3}(?:,\d{3})+\.\d{2}|\d+\.\d{2}/g)) {
    const cents = parseCents(m[0]);
    if (cents !== null) out.add(cents);
  }
  return out;
}

function money(v: unknown): Cents | null {
  if (typeof v === "number" && Number.isFinite(v)) return toCents(v);
  if (typeof v === "string") return parseCents(v);
  return null;
}

/** Checks a model's tool arguments; `pdfText` is the text layer when the input was a text PDF. */
export function validateReceipt(args: Record<string, unknown>, pdfText: string | null): ReceiptCheck {
  const merchant = typeof args.merchant === "string" ? args.merchant.trim() : "";
  if (!merchant) return { ok: false, reason: "The model returned no merchant" };
  const date = typeof args.date === "string" ? args.date.trim() : "";
  if (!isCalendarDate(date)) return { ok: false, reason: "The model returned no valid date (YYYY-MM-DD)" };
  const total = money(args.total);
  if (total === null || total <= 0) return { ok: false, reason: "The model returned no positive total" };
  if (pdfText !== null && !amountsIn(pdfText).has(total)) {
    return {
      ok: false,
      reason: `The total ${plainCents(total)} does not appear in the PDF's text`,
    };
  }
  const currency =
    typeof args.currency === "string" && /^[A-Za-z]{3}$/.test(args.currency.trim())
      ? args.currency.trim().toUpperCase()
      : null;
  const read: ReceiptRead = { merchant: merchant.slice(0, 200), date, total: fromCents(total), currency };
  const items = lineItems(args.line_items);
  if (items === "absent") return { ok: true, read };
  if (items === "invalid") return { ok: true, read: { ...read, line_items_dropped: "malformed line items" } };
  const sum = sumCents(items.map((i) => toCents(i.amount)));
  if (!withinCents(sum, total, LINE_ITEM_TOLERANCE)) {
    const why = `line items add up to ${plainCents(sum)}, not the total ${plainCents(total)}`;
    return { ok: true, read: { ...read, line_items_dropped: why } };
  }
  return { ok: true, read: { ...read, line_items: items } };
}

function lineItems(v: unknown): LineItem[] | "absent" | "invalid" {
  if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) return "absent";
  if (!Array.isArray(v) || v.length > 200) return "invalid";
  const out: LineItem[] = [];
  for (const raw of v) {
    if (raw === null || typeof raw !== "object") return "invalid";
    const r = raw as Record<string, unknown>;
    const amount = money(r.amount);
    const description = typeof r.description === "string" ? r.description.trim().slice(0, 200) : "";
    if (amount === null || !description) return "invalid";
    out.push({ description, amount: fromCents(amount) });
  }
  return out;
}
