/**
 * Currency data for reading amounts in alert emails: the ISO 4217 list of active codes with their
 * minor units, and the symbols and prefixes banks print instead of a code. Data only.
 */

/** ISO 4217 active codes, grouped by minor units (digits after the decimal mark). */
const BY_MINOR_UNITS: Record<number, string> = {
  0: "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF",
  3: "BHD IQD JOD KWD LYD OMR TND",
  4: "CLF UYW",
  // Funds, precious metals and special drawing rights: no minor unit in the list; read as two.
  [-1]: "XAG XAU XBA XBB XBC XBD XDR XPD XPT XSU XUA",
  2: [
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN",
    "BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP",
    "GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK",
    "LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK",
    "NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD",
    "SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG",
    "YER ZAR ZMW ZWG ZWL",
  ].join(" "),
};

/** Minor units of every active ISO 4217 currency code. */
export const MINOR_UNITS: ReadonlyMap<string, number> = new Map(
  Object.entries(BY_MINOR_UNITS).flatMap(([units, codes]) =>
    codes.split(" ").map((code) => [code, units === "-1" ? 2 : Number(units)] as const),
  ),
);

/**
 * Symbols and prefixes as banks print them, mapped to their code; null where the mark names a
 * family of currencies (a bare `$`, `kr`), which the journal's own currency then settles.
 */
export const SYMBOLS: ReadonlyArray<readonly [string, string | null]> = [
  ["US$", "USD"],
  ["USD$", "USD"],
  ["U$S", "USD"],
  ["CA$", "CAD"],
  ["CAD$", "CAD"],
  ["C$", "CAD"],
  ["AU$", "AUD"],
  ["A$", "AUD"],
  ["NZ$", "NZD"],
  ["SG$", "SGD"],
  ["S$", "SGD"],
  ["HK$", "HKD"],
  ["NT$", "TWD"],
  ["MX$", "MXN"],
  ["RD$", "DOP"],
  ["R$", "BRL"],
  ["CN¥", "CNY"],
  ["JP¥", "JPY"],
  ["SFr.", "CHF"],
  ["Fr.", "CHF"],
  ["Rs.", "INR"],
  ["Rs", "INR"],
  ["₹", "INR"],
  ["€", "EUR"],
  ["£", "GBP"],
  ["¥", "JPY"],
  ["円", "JPY"],
  ["元", "CNY"],
  ["₩", "KRW"],
  ["₱", "PHP"],
  ["₺", "TRY"],
  ["₽", "RUB"],
  ["₴", "UAH"],
  ["₪", "ILS"],
  ["฿", "THB"],
  ["₫", "VND"],
  ["₦", "NGN"],
  ["₵", "GHS"],
  ["₲", "PYG"],
  ["₡", "CRC"],
  ["₸", "KZT"],
  ["₼", "AZN"],
  ["₾", "GEL"],
  ["zł", "PLN"],
  ["Kč", "CZK"],
  ["Ft", "HUF"],
  ["lei", "RON"],
  ["RM", "MYR"],
  ["Rp", "IDR"],
  ["kr.", null],
  ["kr", null],
  ["$", null],
];

/** The mark a person reads as the same currency across its spellings ("Rs." and "₹" are INR). */
export function currencyOfMark(mark: string): string | null {
  const code = mark.toUpperCase();
  if (/^[A-Z]{3}$/.test(mark) && MINOR_UNITS.has(code)) return code;
  return SYMBOLS.find(([sym]) => sym === mark)?.[1] ?? null;
}
