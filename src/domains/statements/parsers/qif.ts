/**
 * QIF (Quicken Interchange Format): `!Type:Bank|Cash|CCard|Oth A|Oth L` sections of records ended
 * by `^`, with `D` date, `T` (or `U`) signed amount, `P` payee, `M` memo; `!Account` headers name
 * the account, and each account becomes its own statement. Investment, category and memorised
 * sections are skipped. The date order (QIF has none fixed: `12/31'24`, `31/12/2024`,
 * `2024-12-31`) is decided once per file from all its dates; the decimal mark from all its amounts.
 * Split lines (`S`/`E`/`$`) are parts of the row's total and are not rows. Pure.
 */
import { detectNumberFormat, readMoney, absCents } from "../../../lib/money";
import { fileStatement } from "./balance";
import { decideOrder, fileDate } from "./file-dates";
import { type FileOutcome, notStatement, type ParsedStatement, type StatementRow } from "./index";

interface QifRecord {
  fields: Record<string, string>;
  section: string;
  account: string | null;
}

const BANKISH = /^(bank|cash|ccard|oth a|oth l)$/i;

export const looksLikeQif = (text: string) => /^\s*!(type|account|option)/im.test(text.slice(0, 2000));

function records(text: string): QifRecord[] {
  const out: QifRecord[] = [];
  let section = "bank";
  let account: string | null = null;
  let inAccount = false;
  let fields: Record<string, string> = {};
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trimEnd();
    if (line === "") continue;
    if (line.startsWith("!")) {
      const type = /^!type:\s*(.+)$/i.exec(line)?.[1]?.trim();
      if (type) [section, inAccount] = [type.toLowerCase(), false];
      else if (/^!account/i.test(line)) inAccount = true;
      else if (/^!(clear|option)/i.test(line)) continue;
      fields = {};
      continue;
    }
    if (line.startsWith("^")) {
      if (inAccount) [account, inAccount] = [fields.N ?? account, false];
      else if (Object.keys(fields).length) out.push({ fields, section, account });
      fields = {};
      continue;
    }
    const key = line[0]!;
    // The first of each field is the row's own (split lines repeat S/E/$).
    if (!(key in fields)) fields[key] = line.slice(1).trim();
  }
  return out;
}

export function parseQif(text: string): FileOutcome {
  const recs = records(text).filter((r) => BANKISH.test(r.section) && r.fields.D !== undefined);
  if (recs.length === 0) return notStatement("This QIF file holds no bank, cash or card transactions");
  const dateText = (r: QifRecord) => r.fields.D!.replace(/'\s*/g, "/").replace(/\s+/g, "");
  const order = decideOrder(recs.map(dateText));
  const mark = detectNumberFormat(recs.map((r) => r.fields.T ?? r.fields.U ?? "")).decimal;
  const byAccount = new Map<string, { section: string; rows: StatementRow[]; warnings: string[] }>();
  for (const [i, r] of recs.entries()) {
    const key = r.account ?? "";
    const acc = byAccount.get(key) ?? { section: r.section, rows: [], warnings: [] };
    byAccount.set(key, acc);
    const date = fileDate(dateText(r), order);
    const money = readMoney(r.fields.T ?? r.fields.U ?? "", { decimal: mark });
    if (!date) {
      acc.warnings.push(`Record ${i + 1}: the date "${r.fields.D}" does not exist; left out`);
      continue;
    }
    if (!money.ok) {
      acc.warnings.push(`Record ${i + 1}: the amount "${r.fields.T ?? ""}" is not a number; left out`);
      continue;
    }
    if (money.cents === 0) continue;
    const { P: payee, M: memo } = r.fields;
    acc.rows.push({
      date,
      description: [payee, memo && memo !== payee ? memo : null].filter(Boolean).join(" ") || "Transaction",
      amount: absCents(money.cents),
      type: money.cents < 0 ? "withdrawal" : "deposit",
      balance: null,
    });
  }
  const statements: ParsedStatement[] = [];
  for (const [name, acc] of byAccount) {
    if (acc.rows.length === 0) continue;
    statements.push(
      fileStatement(
        acc.rows,
        { warnings: acc.warnings },
        {
          institution: "Other",
          account_type: /ccard|oth l/.test(acc.section) ? "credit_card" : "chequing",
          account: name || null,
        },
      ),
    );
  }
  if (statements.length === 0) return notStatement("No QIF record has both a date and an amount");
  return { ok: true, statements };
}
