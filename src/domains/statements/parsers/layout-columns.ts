/**
 * The table's columns, found by its header row: the header words of each amount column (withdrawal,
 * deposit, balance, or one signed amount) and of the description, in seven languages, and the
 * column an amount belongs to by its x-span (layout.ts reads the table with them). Pure.
 */
import type { Line } from "./layout";
import type { TextItem } from "./pdf-text";

/** `foreign`: the amount in the currency spent (beside the account's own amount): never a move. */
export type ColumnKind = "withdrawal" | "deposit" | "balance" | "amount" | "foreign";
export interface Span {
  kind: ColumnKind;
  x0: number;
  x1: number;
}
export interface Columns {
  descX: number;
  spans: Span[];
  amountLeft: number;
  /** Columns whose cells are neither text nor amount of a row (a "Status" column's COMPLETED). */
  skip: { x0: number; x1: number }[];
}

/** Column header words (English, French, German, Spanish, Italian, Dutch, Portuguese). */
const HEADER_WORDS: [ColumnKind, RegExp][] = [
  [
    "foreign",
    /foreign|original\s*(amount|currency)|^orig\.?\s*amount|^fx\b|devise|fremdw[äa]hrung|divisa|valuta\s*estera|vreemde\s*valuta/i,
  ],
  ["balance", /^(balanc|solde|saldo|kontostand|stand\b)/i],
  [
    "withdrawal",
    /^(withdraw|debit|débit|cheques|charges|paid out|money out|funds out|out\b|soll\b|lastschrift|belastung|cargo|retiro|salida|addebit|uscit|af\b|afschrijving)/i,
  ],
  [
    "deposit",
    /^(deposit|credit|crédit|paid in|money in|funds in|in\b|haben\b|gutschrift|abono|ingreso|entrada|accredit|entrat|bij\b|bijschrijving)/i,
  ],
  ["amount", /^(amount|montant|betrag|importe|importo|bedrag|valor|monto)/i],
];
const DESC_WORD =
  /^(description|transaction|details|particulars|narrative|payee|memo|libell|opération|operation|concepto|descrip|detalle|descrizione|omschrijving|histórico|movimento)|verwendungszweck|buchungstext|buchungsinformation|vorgang/i;
/** A column of a row's state, printed on every row: not part of the description. */
const STATUS_CELL = /^((transaction|payment)\s+)?(status|state)$|^statut$|^estado$/i;
/** A date column's header word (a description word standing over it names the date column). */
export const DATE_WORD = /^(date|dates|datum|fecha|data|buchung|valuta|wert|valeur|posted|trans\.?)\b/i;

/** A header cell naming the description: it starts with a description word, or one of its words
 * is one ("Activity description") and none a date word ("Transaction date" names a date). */
const isDescCell = (cell: string): boolean => {
  const words = cell.split(/\s+/);
  // "Transaction date" names a date: its last word is the column's noun.
  if (DATE_WORD.test(words.at(-1)!)) return false;
  return (
    DESC_WORD.test(cell) || (words.some((w) => DESC_WORD.test(w)) && !words.some((w) => DATE_WORD.test(w)))
  );
};
/** A header cell naming a date ("Date", "Transaction date", "Posting date"). */
const isDateCell = (cell: string): boolean => cell.split(/\s+/).some((w) => DATE_WORD.test(w));

/** The table's columns when this line is a header row (null otherwise). */
export function headerColumns(line: Line): Columns | null {
  const spans: Span[] = [];
  const skip: Columns["skip"] = [];
  let descX: number | null = null;
  for (const it of line.items) {
    if (it.str.length > 30) return null;
    if (STATUS_CELL.test(it.str)) {
      skip.push({ x0: it.x, x1: it.x + it.w });
      continue;
    }
    const kind = HEADER_WORDS.find(([, re]) => re.test(it.str))?.[0];
    if (kind && !spans.some((s) => s.kind === kind)) spans.push({ kind, x0: it.x, x1: it.x + it.w });
    // "Transaction" above "Date" names the date column, not the description.
    else if (
      descX === null &&
      isDescCell(it.str) &&
      !line.items.some((d) => d !== it && DATE_WORD.test(d.str) && Math.abs(d.x - it.x) < 5)
    ) {
      descX = it.x;
    }
  }
  const has = (k: ColumnKind) => spans.some((s) => s.kind === k);
  const twoColumns = has("withdrawal") && has("deposit");
  // A card statement has one signed Amount column and often no balance: date and description words then.
  const cardLike = has("amount") && descX !== null && line.items.some((i) => isDateCell(i.str));
  if (!(twoColumns || has("amount")) || !(has("balance") || twoColumns || cardLike)) return null;
  const amountLeft = Math.min(...spans.map((s) => s.x0));
  return { descX: descX ?? line.items[0]!.x + 40, spans, amountLeft, skip };
}

const spanGap = (s: Span, x0: number, x1: number) => (x1 < s.x0 ? s.x0 - x1 : x0 > s.x1 ? x0 - s.x1 : 0);

export function columnOf(cols: Columns, it: TextItem): ColumnKind {
  let best = cols.spans[0]!;
  let bestGap = Number.POSITIVE_INFINITY;
  for (const s of cols.spans) {
    const gap = spanGap(s, it.x, it.x + it.w);
    const centre = Math.abs((s.x0 + s.x1) / 2 - (it.x + it.w / 2)) / 1000;
    if (gap + centre < bestGap) {
      best = s;
      bestGap = gap + centre;
    }
  }
  return best.kind;
}
