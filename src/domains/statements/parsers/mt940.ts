/**
 * SWIFT MT940 (statement) and MT942 (interim report) exports, as many European banks give them:
 * every statement of a file (`:20:` … `:62F:`/`-`), one per account (`:25:`); each `:61:` line's
 * value date, optional entry date (MMDD, its year taken across a year end), debit/credit mark (D, C,
 * RD, RC: a reversal flips the sign; a funds code letter may follow), amount with a decimal comma;
 * the `:86:` lines after it for the description and counterparty, structured (`?20`–`?29` purpose,
 * `?32`/`?33` name; `/NAME/`, `/REMI/` styles) or free. Opening (`:60F:`/`:60M:`) and closing
 * (`:62F:`/`:62M:`) balances check the rows like a PDF's. Pure.
 */
import { type Cents, negCents, readMoney, absCents } from "../../../lib/money";
import { fileStatement } from "./balance";
import { realDate } from "./file-dates";
import { type FileOutcome, notStatement, type ParsedStatement, type StatementRow } from "./index";

/** An MT940/942 text: a `:20:` reference and a `:61:` or `:60F:` line near the start. */
export const looksLikeMt940 = (text: string) => {
  const head = text.slice(0, 8000);
  return /(^|\n)\s*:20:/.test(head) && /(^|\n):(25|28C?|60[FM]|61|13D?):/.test(head);
};

/** `:tag:value` fields of one statement, continuation lines joined to their field. */
function fields(block: string): { tag: string; value: string }[] {
  const out: { tag: string; value: string }[] = [];
  for (const line of block.split(/\r?\n/)) {
    const m = /^:(\d\d[A-Z]?):(.*)$/.exec(line);
    if (m) out.push({ tag: m[1]!, value: m[2]! });
    else if (out.length && line.trim() !== "" && line.trim() !== "-") out.at(-1)!.value += `\n${line}`;
  }
  return out;
}

const amountOf = (s: string): Cents | null => {
  const r = readMoney(s.replace(/,$/, ",00"), { decimal: "," });
  return r.ok ? r.cents : null;
};

/** `:60F:C240101EUR1234,56` → signed cents and its date. */
function balanceOf(value: string) {
  const m = /^([CD])(\d{2})(\d{2})(\d{2})([A-Z]{3})([\d,]+)/.exec(value.trim());
  if (!m) return null;
  const cents = amountOf(m[6]!);
  if (cents === null) return null;
  return {
    cents: m[1] === "D" ? negCents(cents) : cents,
    date: realDate(2000 + Number(m[2]), Number(m[3]), Number(m[4])),
    currency: m[5]!,
  };
}

/** A `:86:` field's description and counterparty: structured subfields, slash codes or free text. */
export function describe86(raw: string): string {
  const flat = raw.replace(/\r?\n/g, "");
  if (/^\d{3}\?/.test(flat) || /\?2\d/.test(flat)) {
    const sub = new Map<string, string>();
    for (const m of flat.matchAll(/\?(\d\d)([^?]*)/g)) sub.set(m[1]!, (sub.get(m[1]!) ?? "") + m[2]!);
    const name = [sub.get("32"), sub.get("33")].filter(Boolean).join("");
    const purpose = [...sub.entries()]
      .filter(([k]) => /^2\d$|^6[0-3]$/.test(k))
      .map(([, v]) => v)
      .join("")
      .replace(/^(EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA)\+/, "")
      .replace(/(EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA)\+/g, " ");
    const kind = sub.get("00");
    return [name, purpose || kind].filter(Boolean).join(" ").replace(/\s+/g, " ").trim();
  }
  if (/^\/[A-Z]{2,4}\//.test(flat)) {
    const code = (c: string) =>
      new RegExp(`/${c}/([^/]*(?:/(?![A-Z]{2,4}/)[^/]*)*)`).exec(flat)?.[1]?.replace(/\/+$/, "").trim();
    const name = code("NAME") ?? code("BENM") ?? code("ORDP");
    const remi = code("REMI") ?? code("USTD") ?? code("TRTP");
    if (name || remi) return [name, remi].filter(Boolean).join(" ").replace(/\s+/g, " ").trim();
  }
  return raw.replace(/\s+/g, " ").trim();
}

/** One `:61:` line: dates, sign and amount (the rest is the bank's reference). */
function line61(value: string, statementYear: number) {
  const m = /^(\d{2})(\d{2})(\d{2})(\d{4})?(R?[CD])([A-Z])?([\d,]+)/.exec(value.trim());
  if (!m) return null;
  const year = 2000 + Number(m[1]);
  const valueDate = realDate(year, Number(m[2]), Number(m[3]));
  let entryDate: string | null = null;
  if (m[4]) {
    const [mm, dd] = [Number(m[4].slice(0, 2)), Number(m[4].slice(2))];
    // An entry date in January for a December value date (or the reverse) is in the next (previous) year.
    const y = Number(m[2]) === 12 && mm === 1 ? year + 1 : Number(m[2]) === 1 && mm === 12 ? year - 1 : year;
    entryDate = realDate(y, mm, dd);
  }
  const cents = amountOf(m[7]!);
  if (cents === null || !valueDate) return null;
  const debit = m[5] === "D" || m[5] === "RC";
  const rest = value.slice(m[0].length).split("\n");
  return {
    date: entryDate ?? valueDate ?? `${statementYear}`,
    valueDate,
    cents: debit ? negCents(cents) : cents,
    reference: rest[0]!.replace(/^[A-Z]{4}/, "").trim(),
    detail: rest.slice(1).join(" ").trim(),
  };
}

function statementOf(block: string): ParsedStatement | null {
  const fs = fields(block);
  const rows: StatementRow[] = [];
  const warnings: string[] = [];
  let account: string | null = null;
  let opening: ReturnType<typeof balanceOf> = null;
  let closing: ReturnType<typeof balanceOf> = null;
  for (const [i, f] of fs.entries()) {
    if (f.tag === "25") account = f.value.trim();
    else if (f.tag === "60F" || f.tag === "60M") opening ??= balanceOf(f.value);
    else if (f.tag === "62F" || f.tag === "62M") closing = balanceOf(f.value);
    else if (f.tag === "61") {
      const t = line61(f.value, opening?.date ? Number(opening.date.slice(0, 4)) : 2000);
      if (!t) {
        warnings.push(`The line :61:${f.value.split("\n")[0]} could not be read; left out`);
        continue;
      }
      const next = fs[i + 1];
      const info = next?.tag === "86" ? describe86(next.value) : "";
      if (t.cents === 0) continue;
      rows.push({
        date: t.date,
        description: (info || t.detail || t.reference || "Transaction").slice(0, 300),
        amount: absCents(t.cents),
        type: t.cents < 0 ? "withdrawal" : "deposit",
        balance: null,
        fitid: t.reference && !/^NONREF$/i.test(t.reference) ? t.reference : null,
      });
    }
  }
  if (rows.length === 0 && !opening && !closing) return null;
  return fileStatement(
    rows,
    { opening: opening?.cents ?? null, closing: closing?.cents ?? null, warnings },
    {
      institution: "Other",
      account_type: "chequing",
      account: account ? `…${account.replace(/\W/g, "").slice(-4)}` : null,
      period_start: opening?.date,
      period_end: closing?.date,
    },
  );
}

/** Every statement of the file, merged per account (a statement continued on `:28C:` pages). */
export function parseMt940(text: string): FileOutcome {
  // Statements start at `:20:`; SWIFT envelopes ({1:…}{4:) and trailing `-}` are dropped.
  const body = text.replace(/\{[1-3]:[^}]*\}|\{4:|-\}|\{5:[^}]*\}/g, "\n");
  const blocks = body.split(/\r?\n(?=:20:)/).filter((b) => /:61:|:60[FM]:/.test(b));
  const byAccount = new Map<string, ParsedStatement>();
  for (const b of blocks) {
    const s = statementOf(b);
    if (!s) continue;
    const key = s.account ?? "";
    const seen = byAccount.get(key);
    if (!seen) {
      byAccount.set(key, s);
      continue;
    }
    // A later statement of the same account: its rows follow, each statement's own check kept.
    const offset = seen.rows.length;
    seen.rows.push(...s.rows);
    seen.period_end = s.period_end ?? seen.period_end;
    seen.balance = {
      ...seen.balance,
      ok: seen.balance.ok && s.balance.ok,
      closing: s.balance.closing,
      mismatches: [...seen.balance.mismatches, ...s.balance.mismatches.map((i) => i + offset)],
      warnings: [...seen.balance.warnings, ...s.balance.warnings],
    };
  }
  const statements = [...byAccount.values()].filter((s) => s.rows.length > 0);
  if (statements.length === 0)
    return notStatement("No transaction line (:61:) of this MT940 file could be read");
  return { ok: true, statements };
}
