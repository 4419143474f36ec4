/**
 * OFX 1.x (SGML: leaf tags left open), OFX 2.x (XML) and QFX (OFX with Intuit's tags): our own
 * small reader. The charset is taken from the bytes when the declared one does not decode them;
 * entities and CDATA are decoded once. One statement per account: bank (`STMTRS`), card
 * (`CCSTMTRS`) and the bank transactions inside an investment statement (`INVBANKTRAN`). Amounts go
 * through the one money parser (any number of decimals; trailing zeros past the cent are read, a
 * non-zero part below a cent is rounded half-even to the cent and said in words on that row, for the
 * person to check), dates must exist (`20120231` refuses the row, in words). The FITID of each
 * transaction is kept (re-importing the same file recognises its rows). Pure.
 */
import {
  type Cents,
  type DecimalMark,
  detectNumberFormat,
  readMoney,
  absCents,
  plainCents,
} from "../../../lib/money";
import { fileStatement } from "./balance";
import { decodeBytes } from "./decode";
import { realDate } from "./file-dates";
import { type FileOutcome, notStatement, type ParsedStatement, type StatementRow } from "./index";

/** The header's charset label (OFX 1 `CHARSET:1252` / `ENCODING:UTF-8`, OFX 2 `encoding="..."`). */
function declaredCharset(head: string): string | null {
  const xmlEnc = /encoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1];
  if (xmlEnc) return xmlEnc;
  const enc = /^\s*ENCODING:\s*(\S+)/im.exec(head)?.[1];
  if (enc && /utf-?8|unicode/i.test(enc)) return "utf-8";
  const charset = /^\s*CHARSET:\s*(\S+)/im.exec(head)?.[1];
  if (!charset || /none/i.test(charset)) return null;
  if (/^\d{4}$/.test(charset)) return `windows-${charset}`;
  if (/^8859-?(\d+)$/.test(charset)) return `iso-8859-${/(\d+)$/.exec(charset)![1]}`;
  return charset;
}

/** The file's text: the declared charset when the bytes decode under it, else what the bytes say. */
export function decodeOfx(bytes: Uint8Array): string {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 600));
  return decodeBytes(bytes, declaredCharset(head)).text;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
export const decodeEntities = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });

/** The first value of a leaf tag (`<TAG>value` up to the next tag, SGML or XML; CDATA read as is). */
export function leaf(block: string, tag: string): string | null {
  const m = new RegExp(`<${tag}>\\s*(?:<!\\[CDATA\\[([\\s\\S]*?)\\]\\]>|([^<]*))`, "i").exec(block);
  if (!m) return null;
  const raw = m[1] ?? decodeEntities(m[2] ?? "");
  const v = raw.replace(/\s+/g, " ").trim();
  return v === "" ? null : v;
}

/** OFX dates: YYYYMMDD[HHMMSS[.XXX]][[-5:EST]] → YYYY-MM-DD; null when missing or impossible. */
function ofxDate(v: string | null): string | null {
  const m = v && /^(\d{4})(\d{2})(\d{2})/.exec(v);
  return m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

export const looksLikeOfx = (text: string) => /<OFX>/i.test(text);

/** `<TAG>…</TAG>` blocks (or up to the next `<TAG>` when the closing tag is missing). */
function blocks(text: string, tag: string, end: RegExp = new RegExp(`</${tag}>`, "i")): string[] {
  return text
    .split(new RegExp(`<${tag}>`, "i"))
    .slice(1)
    .map((b) => b.split(end)[0]!);
}

type OfxRow = StatementRow & { fitid: string | null; trntype: string };

function readRows(stmt: string, mark: DecimalMark, warnings: string[]): OfxRow[] {
  const rows: OfxRow[] = [];
  blocks(stmt, "STMTTRN", /<\/STMTTRN>|<\/BANKTRANLIST>|<\/INVBANKTRAN>/i).forEach((b, i) => {
    const where = `Transaction ${i + 1}${leaf(b, "FITID") ? ` (FITID ${leaf(b, "FITID")})` : ""}`;
    const rawDate = leaf(b, "DTPOSTED") ?? leaf(b, "DTUSER");
    const date = ofxDate(rawDate);
    const rawAmount = leaf(b, "TRNAMT");
    if (!date) {
      warnings.push(`${where}: ${rawDate ? `the date ${rawDate} does not exist` : "no date"}; left out`);
      return;
    }
    const money =
      rawAmount && /^[+-]?[\d.,\s]+$/.test(rawAmount) ? readMoney(rawAmount, { decimal: mark }) : null;
    if (!money?.ok) {
      warnings.push(`${where}: the amount ${rawAmount ?? "(missing)"} is not a number; left out`);
      return;
    }
    const amount: Cents = money.cents;
    // A brokerage's cash (Fidelity writes four decimals) is kept for review at the cent, never silently.
    if (money.rounded) {
      warnings.push(
        `${where}: the amount ${rawAmount} has a part smaller than a cent, which no bank account can hold; read as ${plainCents(amount)} (rounded to the cent): check it against your bank`,
      );
    }
    const name = leaf(b, "NAME") ?? leaf(b, "PAYEE");
    const memo = leaf(b, "MEMO");
    const type = leaf(b, "TRNTYPE") ?? "";
    const description =
      [name, memo && memo !== name ? memo : null].filter(Boolean).join(" ") || type || "Transaction";
    const debit = amount < 0 || (amount === 0 && /DEBIT|PAYMENT|CHECK|ATM|POS|FEE/i.test(type));
    rows.push({
      date,
      description,
      amount: absCents(amount),
      type: debit ? "withdrawal" : "deposit",
      balance: null,
      fitid: leaf(b, "FITID"),
      trntype: type.toUpperCase(),
    });
  });
  return rows;
}

/**
 * OFX signs amounts from the holder's side, but some exports sign a card's purchases positive. Each
 * row's own TRNTYPE is the evidence (as a CSV's type column): when the rows typed DEBIT or CREDIT
 * mostly carry the other sign, every row is read the other way round, and the review says why.
 */
function signByType(rows: OfxRow[], warnings: string[]): void {
  let agree = 0;
  let against = 0;
  for (const r of rows) {
    if (r.trntype !== "DEBIT" && r.trntype !== "CREDIT") continue;
    if ((r.trntype === "DEBIT") === (r.type === "withdrawal")) agree++;
    else against++;
  }
  if (against < 2 || against <= 2 * agree) return;
  for (const r of rows) r.type = r.type === "withdrawal" ? "deposit" : "withdrawal";
  warnings.push(
    `This file signs its amounts the other way round from its own transaction types (${against} rows typed DEBIT or CREDIT carry the other sign): read by the types, a DEBIT as money out`,
  );
}

function statementOf(
  stmt: string,
  kind: string,
  org: string | null,
  mark: DecimalMark,
): ParsedStatement | null {
  const warnings: string[] = [];
  const rows = readRows(stmt, mark, warnings);
  signByType(rows, warnings);
  if (rows.length === 0 && warnings.length === 0) return null;
  const ledger = /<LEDGERBAL>([\s\S]*?)(<\/LEDGERBAL>|<AVAILBAL>|$)/i.exec(stmt)?.[1] ?? "";
  const bal = leaf(ledger, "BALAMT");
  const closingRead = kind === "INVSTMTRS" || !bal ? null : readMoney(bal, { decimal: mark });
  const closing = closingRead?.ok ? closingRead.cents : null;
  const acct = leaf(stmt, "ACCTTYPE");
  const acctId = leaf(stmt, "ACCTID");
  return fileStatement(
    rows.map(({ trntype: _, ...r }) => r),
    { closing, warnings },
    {
      institution: org && !/^\d+$/.test(org) ? org : "Other",
      account_type:
        kind === "CCSTMTRS"
          ? "credit_card"
          : kind === "INVSTMTRS"
            ? "investment"
            : acct && /SAVINGS/i.test(acct)
              ? "savings"
              : "chequing",
      account: acctId ? `…${acctId.slice(-4)}` : null,
      period_start: ofxDate(leaf(stmt, "DTSTART")),
      period_end: ofxDate(leaf(stmt, "DTEND")),
    },
  );
}

/** Every account's statement in the file, in file order. */
export function parseOfx(text: string): FileOutcome {
  if (!looksLikeOfx(text)) return notStatement("No <OFX> document found in this file");
  const org = leaf(text, "ORG") ?? leaf(text, "INTU.BID");
  const amounts = [...text.matchAll(/<TRNAMT>\s*([^<\s]+)/gi)].map((m) => m[1]!);
  const mark = detectNumberFormat(amounts).decimal;
  const statements: ParsedStatement[] = [];
  const re = /<(STMTRS|CCSTMTRS|INVSTMTRS)>/gi;
  const starts = [...text.matchAll(re)];
  starts.forEach((m, i) => {
    const kind = m[1]!.toUpperCase();
    const from = m.index! + m[0].length;
    const to = starts[i + 1]?.index ?? text.length;
    const body = text.slice(from, to).split(new RegExp(`</${kind}>`, "i"))[0]!;
    const s = statementOf(body, kind, org, mark);
    if (s) statements.push(s);
  });
  const withRows = statements.filter((s) => s.rows.length > 0);
  if (withRows.length === 0) {
    const why = statements.flatMap((s) => s.balance.warnings).filter((w) => /left out/.test(w));
    const message = why.length
      ? `No transaction of this OFX file could be read: ${why.slice(0, 3).join("; ")}`
      : /<(INVPOSLIST|INVTRANLIST|SECLIST)>/i.test(text)
        ? "This OFX file holds investment positions or trades but no bank transactions"
        : /<CODE>\s*(?!0\b)\d+/i.test(text) && !/<STMTTRN>/i.test(text)
          ? "This OFX file is a bank's error or sign-on response, not a statement: it holds no transactions"
          : "The OFX file holds no transactions";
    return notStatement(message);
  }
  return { ok: true, statements: withRows };
}
