/**
 * ISO 20022 bank-to-customer cash management XML: CAMT.053 statements (`Stmt`), and the same
 * entries in CAMT.052 reports (`Rpt`) and CAMT.054 notifications (`Ntfctn`), any version and
 * namespace prefix. Each statement (account) becomes its own statement. One row per booked entry
 * (`Ntry`, the unit the balances chain over): its `Amt` (decimal point, any number of decimals, a
 * non-zero part below a cent rounded half-even with a warning), `CdtDbtInd` (DBIT money out, CRDT money
 * in; a reversal flips it), the booking date (else the value date), and a description from the
 * counterparty's name, the remittance text and the additional entry information. Pending entries
 * (`Sts` PDNG) are read with a warning, informational ones (INFO) left out. The opening (OPBD/PRCD) and closing (CLBD) balances check the
 * rows. Pure.
 */
import { type Cents, readMoney, negCents, absCents } from "../../../lib/money";
import { fileStatement } from "./balance";
import { realDate } from "./file-dates";
import { type FileOutcome, notStatement, type ParsedStatement, type StatementRow } from "./index";
import { decodeEntities } from "./ofx";

export const looksLikeCamt = (text: string) =>
  /urn:iso:std:iso:20022:tech:xsd:camt\.05[234]/i.test(text.slice(0, 4000)) ||
  /<(\w+:)?(BkToCstmrStmt|BkToCstmrAcctRpt|BkToCstmrDbtCdtNtfctn)>/.test(text.slice(0, 4000));

/** The first `<tag>` element's inner XML (tags are matched without their namespace prefix). */
function el(xml: string, tag: string): string | null {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(xml);
  return m ? m[1]! : null;
}
const all = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => m[1]!);
const text = (xml: string | null) =>
  xml === null
    ? null
    : decodeEntities(xml.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1").replace(/<[^>]+>/g, " "))
        .replace(/\s+/g, " ")
        .trim() || null;

/** `<X><Dt>2024-01-31</Dt></X>` or `<X><DtTm>2024-01-31T10:00:00</DtTm></X>` → YYYY-MM-DD. */
function dateIn(xml: string | null): { raw: string; iso: string | null } | null {
  if (!xml) return null;
  const raw = text(el(xml, "Dt") ?? el(xml, "DtTm") ?? xml);
  const m = raw && /^(\d{4})-(\d{2})-(\d{2})/.exec(raw);
  return raw ? { raw, iso: m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : null } : null;
}

function signedAmount(xml: string): { cents: Cents | null; raw: string; rounded: boolean } {
  const raw = text(el(xml, "Amt")) ?? "";
  const r = /^[+-]?\d+(\.\d+)?$/.test(raw) ? readMoney(raw, { decimal: "." }) : null;
  if (!r?.ok) return { cents: null, raw, rounded: false };
  const debit = /DBIT/.test(text(el(xml, "CdtDbtInd")) ?? "");
  const reversal = /true/i.test(text(el(xml, "RvslInd")) ?? "");
  return { cents: debit !== reversal ? negCents(r.cents) : r.cents, raw, rounded: r.rounded };
}

function balance(stmt: string, codes: RegExp) {
  for (const b of all(stmt, "Bal")) {
    if (!codes.test(text(el(b, "Tp")) ?? "")) continue;
    const a = signedAmount(b);
    if (a.cents !== null) return a.cents;
  }
  return null;
}

function describe(entry: string, debit: boolean): string {
  const party = debit
    ? (text(el(el(entry, "Cdtr") ?? "", "Nm")) ?? text(el(el(entry, "UltmtCdtr") ?? "", "Nm")))
    : (text(el(el(entry, "Dbtr") ?? "", "Nm")) ?? text(el(el(entry, "UltmtDbtr") ?? "", "Nm")));
  const remit = all(entry, "Ustrd").map(text).filter(Boolean).join(" ");
  const info = text(el(entry, "AddtlNtryInf")) ?? text(el(entry, "AddtlTxInf"));
  return [party, remit || info].filter(Boolean).join(" ").slice(0, 300) || "Transaction";
}

/** The statement's own date: its closing balance's, else the end of its period, else when it was made. */
function statementDate(stmt: string) {
  const closing = all(stmt, "Bal").find((b) => /CLBD|CLAV/.test(text(el(b, "Tp")) ?? ""));
  const period = el(stmt, "FrToDt");
  const made = el(stmt, "CreDtTm");
  return (
    dateIn(closing ? el(closing, "Dt") : null) ??
    dateIn(period ? (el(period, "ToDtTm") ?? el(period, "ToDt")) : null) ??
    (made ? dateIn(`<Dt>${made}</Dt>`) : null)
  );
}

function statementOf(stmt: string): ParsedStatement | null {
  const warnings: string[] = [];
  const stmtDate = statementDate(stmt);
  const rows: StatementRow[] = [];
  for (const [i, entry] of all(stmt, "Ntry").entries()) {
    const status = text(el(entry, "Sts")) ?? "BOOK";
    if (/INFO/i.test(status)) continue;
    const where = `Entry ${i + 1}`;
    if (/PDNG|FUTR/i.test(status)) warnings.push(`${where} is not booked yet at the bank (${status})`);
    const own = dateIn(el(entry, "BookgDt")) ?? dateIn(el(entry, "ValDt"));
    // An entry without its own dates (a batch) takes the statement's date, with a warning.
    const date = own ?? stmtDate;
    if (!own && stmtDate?.iso)
      warnings.push(`${where} carries no date: dated ${stmtDate.iso}, the statement's date`);
    const amt = signedAmount(
      entry.replace(/<NtryDtls>[\s\S]*<\/NtryDtls>/, "").replace(/<Chrgs>[\s\S]*?<\/Chrgs>/g, ""),
    );
    if (!date?.iso) {
      warnings.push(`${where}: ${date ? `the date ${date.raw} does not exist` : "no date"}; left out`);
      continue;
    }
    if (amt.cents === null) {
      warnings.push(`${where}: the amount ${amt.raw || "(missing)"} is not a number; left out`);
      continue;
    }
    if (amt.rounded) warnings.push(`${where}: the amount ${amt.raw} was rounded to the cent`);
    if (amt.cents === 0) continue;
    const ref = text(el(entry, "AcctSvcrRef")) ?? text(el(entry, "NtryRef"));
    rows.push({
      date: date.iso,
      description: describe(entry, amt.cents < 0),
      amount: absCents(amt.cents),
      type: amt.cents < 0 ? "withdrawal" : "deposit",
      balance: null,
      fitid: ref,
    });
  }
  if (rows.length === 0 && warnings.length === 0) return null;
  const acct = el(stmt, "Acct") ?? "";
  const iban = text(el(acct, "IBAN")) ?? text(el(el(acct, "Othr") ?? "", "Id"));
  const period = el(stmt, "FrToDt") ?? "";
  return fileStatement(
    rows,
    { opening: balance(stmt, /OPBD|PRCD/), closing: balance(stmt, /CLBD/), warnings },
    {
      institution: text(el(el(acct, "FinInstnId") ?? "", "Nm")) ?? "Other",
      account_type: "chequing",
      account: iban ? `…${iban.slice(-4)}` : null,
      period_start: dateIn(el(period, "FrDtTm") ?? el(period, "FrDt"))?.iso,
      period_end: dateIn(el(period, "ToDtTm") ?? el(period, "ToDt"))?.iso,
    },
  );
}

export function parseCamt(raw: string): FileOutcome {
  const xml = raw.replace(/<(\/?)[A-Za-z_][\w.-]*:/g, "<$1");
  const stmts = [...all(xml, "Stmt"), ...all(xml, "Rpt"), ...all(xml, "Ntfctn")];
  if (stmts.length === 0)
    return notStatement("This ISO 20022 file holds no statement (Stmt), report or notification");
  const statements = stmts.map(statementOf).filter((s): s is ParsedStatement => s !== null);
  const withRows = statements.filter((s) => s.rows.length > 0);
  if (withRows.length === 0) {
    const why = statements.flatMap((s) => s.balance.warnings).filter((w) => /left out/.test(w));
    return notStatement(
      why.length
        ? `No entry of this CAMT file could be read: ${why.slice(0, 3).join("; ")}`
        : "This CAMT file holds no booked entries",
    );
  }
  return { ok: true, statements: withRows };
}
