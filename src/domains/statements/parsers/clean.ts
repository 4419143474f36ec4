/**
 * Description cleaning (SPEC.md): known bank prefixes are removed, a prefix that is the whole
 * description maps to a display name, and run-together CamelCase words are split. Pure.
 */

/** Prefix (compared without spaces, lowercase) → display name used when nothing follows it. */
const PREFIXES: [string, string][] = [
  ["payrolldeposit", "Payroll Deposit"],
  ["billpayment", "Bill Payment"],
  ["hydrobillpmt", "Hydro Bill Payment"],
  ["miscpayment", "Misc Payment"],
  ["onlinebankingtransfer", "Online Banking Transfer"],
  ["onlinebankingpayment", "Online Banking Payment"],
  ["onlinetransfersent", "Online Transfer Sent"],
  ["onlinetransferreceived", "Online Transfer Received"],
  ["mobilechequedeposit", "Mobile Cheque Deposit"],
  ["interace-transferreceive", "Interac e-Transfer Received"],
  ["interace-transfersend", "Interac e-Transfer Sent"],
  ["interace-transfer", "Interac e-Transfer"],
  ["e-transfersent", "e-Transfer Sent"],
  ["e-transferreceived", "e-Transfer Received"],
  ["visadebitpurchase", "Visa Debit Purchase"],
  ["interacpurchase", "Interac Purchase"],
  ["pointofsalepurchase", "Purchase"],
  ["pos purchase", "Purchase"],
  ["preauthorizeddebit", "Pre-authorized Debit"],
  ["contactlessinteracpurchase", "Interac Purchase"],
  ["atmwithdrawal", "ATM Withdrawal"],
  ["depositinterest", "Interest"],
  ["interest", "Interest"],
  ["misccredit", "Misc Credit"],
];

/** "WestlandUtilityCo" → "Westland Utility Co"; ALLCAPS and "e-Transfer" stay as they are. */
export function splitCamel(s: string): string {
  return s.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
}

const squash = (s: string) => s.toLowerCase().replace(/\s+/g, "");

/** The display description of a raw statement description. */
export function cleanDescription(raw: string): string {
  const text = raw.replace(/\s+/g, " ").trim();
  const key = squash(text);
  for (const [prefix, display] of PREFIXES) {
    const p = prefix.replace(/\s+/g, "");
    if (!key.startsWith(p)) continue;
    // Walk the raw text until `p.length` non-space characters were consumed.
    let seen = 0;
    let cut = 0;
    while (cut < text.length && seen < p.length) {
      if (text[cut] !== " ") seen++;
      cut++;
    }
    const rest = text
      .slice(cut)
      .replace(/^[\s\-:#]*\d*[\s\-:]*/, "")
      .trim();
    return rest ? splitCamel(rest) : display;
  }
  return splitCamel(text);
}
