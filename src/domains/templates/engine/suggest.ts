/**
 * What a quarantined email plainly says, to prefill the resolve form: the first amount
 * with a currency mark (or after an amount label), the transaction's date and time (a date followed
 * by a time first; a date that could read two ways takes the reading nearest before the sent day),
 * and a merchant guess (the value of a merchant-like label, else the name after "at"/"chez"/"en").
 * Only suggestions: the person checks them before saving.
 */
import { fromCents } from "../../../lib/money";
import { findAmounts } from "../../../ingest/amounts";
import { datesIn, findTime, readTime } from "./dates";
import { widen } from "./merchant-span";
import { bodyLines } from "./text";

const LABEL =
  /^(?:merchant(?: name)?|description|payee|where|store|to|at|commerçant|marchand|comercio|establecimiento|lugar de transacción|lugar|estabelecimento|händler|加盟店名|ご利用先)\s*[:：]\s*(.+)$/iu;
const AT = /(?:^|\s)(?:at|chez|en|bei|em)\s+(?=[\p{Lu}\p{N}])/gu;

function merchantGuess(lines: string[]): string | null {
  for (const l of lines) {
    const m = LABEL.exec(l);
    if (m?.[1] && /\p{L}/u.test(m[1])) return m[1].trim().slice(0, 200);
  }
  for (const l of lines) {
    for (const m of l.matchAll(AT)) {
      const start = m.index + m[0].length;
      const end = widen(l, start, start + 1, l.length);
      const name = l.slice(start, end).trim();
      if (/\p{L}/u.test(name)) return name.slice(0, 200);
    }
  }
  return null;
}

export function suggestValues(body: string, sentIso: string) {
  const lines = bodyLines(body.slice(0, 50_000)).filter((l) => l.length <= 1000);
  const amount = findAmounts(lines.join("\n")).find((a) => a.cents !== null && a.cents > 0);
  const found = lines.flatMap((l, line) =>
    datesIn(l, sentIso)
      .filter((d) => d.iso <= sentIso || d.iso.slice(0, 7) === sentIso.slice(0, 7))
      .map((d) => ({ ...d, line, time: findTime(l, d.end) ?? null })),
  );
  // Nearest before the sent day among the readings of the first date that has a time, else the first.
  const first = found.find((d) => d.time) ?? found[0];
  const same = found.filter((d) => first && d.line === first.line && d.start === first.start);
  const date = same.sort((a, b) => (a.iso > b.iso ? -1 : 1))[0] ?? null;
  const t = date?.time ? (lines[date.line] ?? "").slice(date.time.start, date.time.end) : null;
  return {
    amount: amount?.cents ? fromCents(amount.cents) : null,
    date: date?.iso ?? null,
    time: t ? readTime(t) : null,
    company: merchantGuess(lines),
  };
}
