/**
 * OFX 1.x (SGML: leaf tags left open), OFX 2.x (XML) and QFX (OFX with Intuit's tags): our own
 * small reader. The text is decoded by the header's charset, entities are decoded once, and the
 * FITID of each transaction is kept (re-importing the same file recognises its rows). Pure.
 */
import { type Cents, parseMoney } from "../../../lib/money";
import { checkBalances } from "./balance";
import { isoDate } from "./dates";
import type { LayoutRow } from "./layout";
import type { ParseOutcome, StatementRow } from "./index";

/** The header's charset (OFX 1 `CHARSET:1252` / `ENCODING:UTF-8`, OFX 2 `encoding="..."`). */
export function decodeOfx(bytes: Uint8Array): string {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 600));
  const xmlEnc = /encoding\s*=\s*"([^"]+)"/i.exec(head)?.[1];
  const enc = /^ENCODING:\s*(\S+)/im.exec(head)?.[1];
  const charset = /^CHARSET:\s*(\S+)/im.exec(head)?.[1];
  let label = "utf-8";
  if (xmlEnc) label = xmlEnc;
  else if (enc && /utf-?8/i.test(enc)) label = "utf-8";
  else if (charset && /^(1252|windows-1252)$/i.test(charset)) label = "windows-1252";
  else if (charset && /8859-?1|latin/i.test(charset)) label = "latin1";
  else if (enc && /usascii/i.test(enc)) label = "windows-1252";
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder("latin1").decode(bytes);
  }
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

/** The first value of a leaf tag (`<TAG>value` up to the next tag, SGML or XML). */
function leaf(block: string, tag: string): string | null {
  const m = new RegExp(`<${tag}>([^<]*)`, "i").exec(block);
  if (!m) return null;
  const v = decodeEntities(m[1]!.replace(/\s+/g, " ").trim());
  return v === "" ? null : v;
}

/** OFX dates: YYYYMMDD[HHMMSS[.XXX]][[-5:EST]] → YYYY-MM-DD (the posted day as printed). */
function ofxDate(v: string | null): string | null {
  const m = v && /^(\d{4})(\d{2})(\d{2})/.exec(v);
  return m ? isoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

/** "-1,234.56", "-1234,56" (a comma decimal) or "-30.000" → signed cents (rounded half-even). */
function ofxAmount(v: string | null): Cents | null {
  return v ? parseMoney(v) : null;
}

export const looksLikeOfx = (text: string) => /<OFX>/i.test(text);

export function parseOfx(text: string): ParseOutcome {
  if (!looksLikeOfx(text))
    return { ok: false, reason: "not_a_statement", message: "No <OFX> document found in this file" };
  const blocks = text
    .split(/<STMTTRN>/i)
    .slice(1)
    .map((b) => b.split(/<\/STMTTRN>|<\/BANKTRANLIST>/i)[0]!);
  const rows: (StatementRow & { fitid: string | null })[] = [];
  for (const b of blocks) {
    const amount = ofxAmount(leaf(b, "TRNAMT"));
    const date = ofxDate(leaf(b, "DTPOSTED")) ?? ofxDate(leaf(b, "DTUSER"));
    if (amount === null || !date) continue;
    const name = leaf(b, "NAME") ?? leaf(b, "PAYEE");
    const memo = leaf(b, "MEMO");
    const description =
      [name, memo && memo !== name ? memo : null].filter(Boolean).join(" ") ||
      (leaf(b, "TRNTYPE") ?? "Transaction");
    const debit =
      amount < 0 || (amount === 0 && /DEBIT|PAYMENT|CHECK|ATM|POS|FEE/i.test(leaf(b, "TRNTYPE") ?? ""));
    rows.push({
      date,
      description,
      amount: Math.abs(amount),
      type: debit ? "withdrawal" : "deposit",
      balance: null,
      fitid: leaf(b, "FITID"),
    });
  }
  if (rows.length === 0)
    return { ok: false, reason: "not_a_statement", message: "The OFX file holds no transactions" };
  const ledger = /<LEDGERBAL>([\s\S]*?)(<\/LEDGERBAL>|<AVAILBAL>|$)/i.exec(text)?.[1] ?? "";
  const closing = ofxAmount(leaf(ledger, "BALAMT"));
  const layoutRows: LayoutRow[] = rows.map((r) => ({
    date: { year: 0, month: 0, day: 0 },
    description: r.description,
    withdrawal: r.type === "withdrawal" ? r.amount : null,
    deposit: r.type === "deposit" ? r.amount : null,
    balance: null,
  }));
  const { balances, check } = checkBalances(
    layoutRows,
    null,
    closing === null ? null : { cents: closing, truncated: false },
    { in: null, out: null },
  );
  const org = leaf(text, "ORG") ?? leaf(text, "INTU.BID");
  const acct = leaf(text, "ACCTTYPE");
  return {
    ok: true,
    statement: {
      institution: org && !/^\d+$/.test(org) ? org : "Other",
      account_type: /CREDITCARDMSGSRS/i.test(text)
        ? "credit_card"
        : acct && /SAVINGS/i.test(acct)
          ? "savings"
          : "chequing",
      period_start: ofxDate(leaf(text, "DTSTART")) ?? rows.map((r) => r.date).sort()[0]!,
      period_end:
        ofxDate(leaf(text, "DTEND")) ??
        rows
          .map((r) => r.date)
          .sort()
          .at(-1)!,
      parsed_with_ai: false,
      rows: rows.map((r, i) => ({ ...r, balance: balances[i] ?? null })),
      balance: check,
    },
  };
}
