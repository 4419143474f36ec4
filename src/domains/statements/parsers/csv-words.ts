/**
 * What a CSV header cell names, in English, French, German, Spanish, Italian, Dutch and Portuguese
 * (and Hungarian, Polish and Czech; accents, case, punctuation and a currency in brackets ignored):
 * the date, the description, one
 * signed amount, money out / money in (YNAB's Outflow/Inflow too), the balance, a debit/credit type
 * column, and card words. Each role lists its words best first; a cell is matched whole or by its
 * leading words ("Booking date (UTC)"). Pure.
 */
export type Role = "date" | "description" | "amount" | "withdrawal" | "deposit" | "balance" | "direction";

export const foldHeader = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\(.*?\)|\[.*?\]/g, " ")
    .replace(/[^a-z0-9/]+/g, " ")
    .trim();

// One string per role, words separated by "|", best first (kept as strings so each stays one line per language).
const LISTS: Record<Role, string[]> = {
  date: [
    "transaction date|trans date|txn date|posting date|posted date|booking date|date|posted|created|completed date|started date",
    "date operation|date de l operation|date de operation|date comptable|date de comptabilisation",
    "buchungstag|buchungsdatum|transaktionsdatum|datum",
    "fecha operacion|fecha de operacion|fecha|fecha contable",
    "data operazione|data contabile|data movimento|data",
    "boekingsdatum|transactiedatum|datum transactie",
    "data lancamento|data do movimento|data da operacao",
    "konyveles datuma|tranzakcio datuma|data operacji|data ksiegowania|datum zauctovani|datum provedeni",
    "value date|date valeur|wertstellung|valuta|fecha valor|data valuta|rentedatum|ertek nap",
  ],
  description: [
    "description|transaction description|desc|details|narrative|memo|payee|merchant|merchant name|name|partner name|counterparty|transaction details|original description",
    "libelle|libelle operation|intitule|tiers|beneficiaire",
    "verwendungszweck|buchungstext|beschreibung|auftraggeber/empfanger|empfanger|beguenstigter/zahlungspflichtiger|name zahlungsbeteiligter",
    "concepto|descripcion|beneficiario|movimiento",
    "descrizione|causale|descrizione operazione",
    "omschrijving|naam|naam / omschrijving|mededelingen",
    "descricao|historico|descritivo",
    "partner neve|kozlemeny|megjegyzes|opis operacji|opis|tytul|nazwa kontrahenta|popis|nazev protiuctu",
  ],
  amount: [
    "amount|transaction amount|value|sum|net amount|total",
    "montant|montant operation|buchungsbetrag|betrag|umsatz|summe|importe|cantidad|importo|bedrag|valor|montante",
    "osszeg|tranzakcio osszege|osszege|kwota|kwota operacji|castka|zauctovana castka|objem|suma|belopp|belob|belop|maara|summa|suma litais|bedrag eur",
    // A column named by its currency ("CAD$", "USD", "EUR") holds amounts in it.
    "cad|usd|eur|gbp|chf|aud|nzd|jpy|sek|nok|dkk|pln|huf|czk|inr|mxn|brl|zar",
  ],
  withdrawal: [
    "withdrawal|withdrawals|withdrawal amount|debit|debits|debit amount|paid out|money out|outflow|funds out|out",
    "debit eur|montant debit|soll|belastung|ausgang|ausgaben|cargo|cargos|debe|retiros|addebiti|addebito|uscite|dare",
    "af|uitgaven|debito|saida|saidas|terheles|obciazenia|vydaj",
  ],
  deposit: [
    "deposit|deposits|deposit amount|credit|credits|credit amount|paid in|money in|inflow|funds in|in",
    "montant credit|haben|gutschrift|eingang|einnahmen|abono|abonos|haber|ingresos|accrediti|accredito|entrate|avere",
    "bij|inkomsten|credito|entrada|entradas|jovairas|uznania|prijem",
  ],
  balance: [
    "balance|running balance|balance after|new balance|account balance|runningbalance",
    "solde|kontostand|saldo|saldo nach buchung|saldo contable|saldo disponibile|saldo final|egyenleg|saldo po operacji|zustatek",
  ],
  direction: [
    "transaction type|debit/credit|credit/debit|dr/cr|cr/dr|d/c|c/d|af/bij|af bij|bij af|soll/haben|soll haben",
    "credit debit indicator|sens|debit credit|type|tipo|typ|art",
  ],
};
const WORDS = Object.fromEntries(
  Object.entries(LISTS).map(([role, lines]) => [role, lines.flatMap((l) => l.split("|"))]),
) as Record<Role, string[]>;

/** How well `cell` names `role`: 0 none, higher better (earlier words and whole matches first). */
export function roleScore(cell: string, role: Role): number {
  const h = foldHeader(cell);
  if (!h) return 0;
  const list = WORDS[role];
  const whole = list.indexOf(h);
  if (whole >= 0) return 2000 - whole;
  const part = list.findIndex((w) => h.startsWith(`${w} `) || h.endsWith(` ${w}`));
  return part >= 0 ? 1000 - part : 0;
}

/** Words of a debit (money out) and a credit (money in) in a type column. */
const OUT_WORDS =
  /^(debit|dr|d|db|withdrawal|purchase|payment out|sale|charge|debit transfer|af|s|soll|lastschrift|belastung|debito|cargo|addebito|uscita|saida|sortie|retrait|out|-)$/;
const IN_WORDS =
  /^(credit|cr|c|deposit|payment|refund|credit transfer|bij|h|haben|gutschrift|credito|abono|accredito|entrata|entrada|entree|versement|in|\+)$/;

/** A type column's value → the direction it names, or null when it names none. */
export function directionOf(value: string): "out" | "in" | null {
  const v = foldHeader(value);
  if (OUT_WORDS.test(v)) return "out";
  if (IN_WORDS.test(v)) return "in";
  return null;
}

/** Card words in a header or a file's first lines (a card export lists purchases as positive). */
export const CARD_WORDS =
  /\b(card|credit card|card ?number|card no|cardmember|card member|carte|karte|kreditkarte|tarjeta|carta|kaart|creditcard|cartao|visa|mastercard|amex|american express|card ?id|cardholder|card holder|merchant category|mcc|kartya|karta|kortti|kort)\b/i;

/** Payment words: the only rows a card export prints as negative. */
export const PAYMENT_WORDS =
  /payment|thank you|autopay|paiement|versement|zahlung|gutschrift|pago|abono|pagamento|betaling|refund|credit|remboursement|return/i;

/** Day-first languages: a header in one of them hints that dates are day/month. */
export const DAY_FIRST_HEADER =
  /\b(datum|buchungstag|wertstellung|betrag|montant|libelle|fecha|importe|importo|data|bedrag|omschrijving|valor|saldo|solde)\b/;
