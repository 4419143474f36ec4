/**
 * Day-summary rules (pure): which days need a summary, the prompts (one day for `hosted`, a batch
 * for the CLI providers), reading a batched answer, and when the automatic summary is due.
 */
export const DAY_SUMMARY_TIMEOUT_SECONDS = 600;
/** A summary is one line; anything longer is cut at a word boundary. */
export const MAX_SUMMARY_CHARS = 280;

export interface DayLine {
  company: string;
  amount: number;
  type: string;
  category: string;
  comment: string | null;
}

/** Days with transactions that have no summary yet (all of them with `force`), oldest first. */
export function daysToSummarize(
  withTransactions: readonly string[],
  summarized: ReadonlySet<string>,
  opts: { only?: readonly string[] | null; force?: boolean },
): string[] {
  const only = opts.only?.length ? new Set(opts.only) : null;
  return [...new Set(withTransactions)]
    .filter((d) => (only ? only.has(d) : true))
    .filter((d) => opts.force || !summarized.has(d))
    .sort();
}

export const DAY_SYSTEM =
  "You write a one-sentence, plain-language summary of one person's spending on one day, from the " +
  "transactions given as JSON. Mention the notable merchants and the total; no advice, no markdown.";

export const BATCH_SYSTEM =
  "You write a one-sentence, plain-language summary of one person's spending for each day given as " +
  'JSON. Answer with only a JSON object mapping each date (YYYY-MM-DD) to its sentence, e.g. {"2024-10-01": "…"}.';

export const dayPrompt = (day: string, lines: readonly DayLine[]) =>
  JSON.stringify({ date: day, transactions: lines });

export const batchPrompt = (days: Record<string, readonly DayLine[]>) => JSON.stringify({ days });

/** One tidy line: whitespace collapsed, surrounding quotes dropped, cut to MAX_SUMMARY_CHARS. */
export function cleanSummary(text: string): string | null {
  const one = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^["“]|["”]$/g, "")
    .trim();
  if (!one) return null;
  if (one.length <= MAX_SUMMARY_CHARS) return one;
  const cut = one.slice(0, MAX_SUMMARY_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), MAX_SUMMARY_CHARS - 40))}…`;
}

/** The batched answer: a JSON object (possibly fenced or with prose around it) of day → sentence. */
export function parseBatch(text: string, days: readonly string[]): Record<string, string> {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return {};
  let obj: unknown;
  try {
    obj = JSON.parse(text.slice(start, end + 1));
  } catch {
    return {};
  }
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) return {};
  const out: Record<string, string> = {};
  for (const d of days) {
    const v = (obj as Record<string, unknown>)[d];
    const s = typeof v === "string" ? cleanSummary(v) : null;
    if (s) out[d] = s;
  }
  return out;
}

/** Local date (YYYY-MM-DD) and minute of the day of an instant in a time zone. */
function localClock(at: Date, timeZone: string): { date: string; minute: number } {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "00";
  return {
    date: `${get("year")}-${get("month")}-${get("day")}`,
    minute: Number(get("hour")) * 60 + Number(get("minute")),
  };
}

/**
 * Is the automatic summary due in the minute starting at `now`? Due when the local clock crossed
 * the scheduled HH:MM during the last minute. Reading the wall clock of the zone at each instant
 * makes it DST-correct: a time that a spring-forward skips fires at the first minute after the
 * gap; a time that a fall-back repeats may fire twice, and the second run finds the day done.
 */
export function summaryDue(now: Date, timeZone: string, hhmm: string): { due: boolean; date: string } {
  const [h, m] = hhmm.split(":").map(Number) as [number, number];
  const scheduled = h * 60 + m;
  const cur = localClock(now, timeZone);
  const prev = localClock(new Date(now.getTime() - 60_000), timeZone);
  const before = prev.date === cur.date ? prev.minute : -1;
  return { due: before < scheduled && scheduled <= cur.minute, date: cur.date };
}
