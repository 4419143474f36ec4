import type { TxType } from "../api/types";
// Money, dates and months, all through Intl so they read naturally in the viewer's locale.
const CURRENCY: string = import.meta.env.VITE_CURRENCY ?? "CAD";

const moneyFmt = new Intl.NumberFormat(undefined, {
  style: "currency",
  currency: CURRENCY,
  currencyDisplay: "narrowSymbol",
});
const moneyWhole = new Intl.NumberFormat(undefined, {
  style: "currency",
  currency: CURRENCY,
  currencyDisplay: "narrowSymbol",
  maximumFractionDigits: 0,
});
const pctFmt = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1, signDisplay: "exceptZero" });

export function money(
  n: number | null | undefined,
  opts: { signed?: boolean; whole?: boolean } = {},
): string {
  if (n === null || n === undefined || Number.isNaN(n)) return "—";
  const f = opts.whole ? moneyWhole : moneyFmt;
  if (!opts.signed) return f.format(n);
  if (n === 0) return f.format(0);
  return `${n > 0 ? "+" : "−"}${f.format(Math.abs(n))}`;
}

export function percent(n: number | null | undefined): string {
  if (n === null || n === undefined) return "new";
  return `${pctFmt.format(n)}%`;
}

/** YYYY-MM of "now" in the configured time zone. */
export function currentMonth(timeZone?: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
  }).formatToParts(new Date());
  const y = parts.find((p) => p.type === "year")?.value;
  const m = parts.find((p) => p.type === "month")?.value;
  return `${y}-${m}`;
}

export function isMonth(s: string | null | undefined): s is string {
  return !!s && /^\d{4}-(0[1-9]|1[0-2])$/.test(s);
}

export function shiftMonth(month: string, delta: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + delta, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

export function daysInMonth(month: string): number {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

const monthFmt = new Intl.DateTimeFormat(undefined, { month: "long", year: "numeric", timeZone: "UTC" });
export function monthLabel(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return monthFmt.format(new Date(Date.UTC(y, m - 1, 1)));
}

const dayFmt = new Intl.DateTimeFormat(undefined, {
  weekday: "long",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});
/** "Friday, November 20" for a YYYY-MM-DD date. */
export function dayLabel(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return dayFmt.format(new Date(Date.UTC(y, m - 1, d)));
}

const timeFmt = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit", timeZone: "UTC" });
const shortDateFmt = new Intl.DateTimeFormat(undefined, {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** Splits the API's "MM/DD/YYYY HH:MM ZZZ" into a readable date and time. */
export function txWhen(date: string | null | undefined): { date: string; time: string; zone: string } {
  const m = date?.match(/^(\d{2})\/(\d{2})\/(\d{4})\s+(\d{2}):(\d{2})\s*(\S*)/);
  if (!m) return { date: date ?? "", time: "", zone: "" };
  const [, mo, d, y, h, mi, zone] = m;
  const at = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi)));
  // A row known only by its date (a statement row, one added by hand) is stored at 00:00: it has
  // no time to show.
  if (h === "00" && mi === "00") return { date: shortDateFmt.format(at), time: "", zone: "" };
  return { date: shortDateFmt.format(at), time: timeFmt.format(at), zone: zone ?? "" };
}

const stampFmt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
export function stamp(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : stampFmt.format(d);
}

const rel = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
export function ago(iso: string, now = Date.now()): string {
  const secs = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(secs);
  if (abs < 60) return rel.format(secs, "second");
  if (abs < 3600) return rel.format(Math.round(secs / 60), "minute");
  if (abs < 86400) return rel.format(Math.round(secs / 3600), "hour");
  return rel.format(Math.round(secs / 86400), "day");
}

/** Categories are stored lowercased; show them as the category list spells them. */
export function categoryLabel(name: string | null | undefined, known: readonly string[] = []): string {
  if (!name) return "Uncategorized";
  const hit = known.find((k) => k.toLowerCase() === name.toLowerCase());
  if (hit) return hit;
  return name.replace(/(^|[\s/&-])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
}

export const SPENDING_TYPES = new Set<string>([
  "purchase",
  "withdrawal",
  "preauth",
  "e-transfer-sent",
] satisfies TxType[]);
export function isIncoming(type: string | null | undefined): boolean {
  return !!type && !SPENDING_TYPES.has(type);
}

/** Every type of the contract in words: a type the API adds fails the type check until it has its words. */
const TYPE_WORDS: Record<TxType, string> = {
  purchase: "Purchase",
  withdrawal: "Withdrawal",
  preauth: "Pre-authorization",
  "e-transfer": "E-transfer",
  "e-transfer-sent": "E-transfer sent",
  deposit: "Deposit",
};
/** The contract's transaction types, in the order forms list them. */
export const TX_TYPES = Object.keys(TYPE_WORDS) as TxType[];
/** A transaction type in words ("preauth" → "Pre-authorization"). */
export function typeLabel(type: string | null | undefined): string {
  if (!type) return "—";
  return (
    TYPE_WORDS[type.toLowerCase() as TxType] ??
    type.charAt(0).toUpperCase() + type.slice(1).replace(/[_-]/g, " ")
  );
}

const ACCOUNT_WORDS: Record<string, string> = {
  credit_card: "Credit card",
  chequing: "Chequing",
  checking: "Checking",
  savings: "Savings",
  line_of_credit: "Line of credit",
  investment: "Investment",
};
/** A statement's account type in words ("credit_card" → "Credit card"). */
export function accountTypeLabel(type: string | null | undefined): string {
  if (!type) return "Account";
  const words = type.replace(/_/g, " ");
  return ACCOUNT_WORDS[type] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

/** "1 transaction", "3 transactions": a number with its noun (plural adds "s" unless given). */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString("en-CA")} ${n === 1 ? noun : plural}`;
}
