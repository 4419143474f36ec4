// The ledger's rows: several months merged, sorted and filtered in the browser.
import type { Transaction } from "../../api/types";

export type SortKey = "date" | "company" | "category" | "type" | "amount";
export interface Sort {
  key: SortKey;
  dir: 1 | -1;
}
export interface Filter {
  text: string;
  category: string;
  type: string;
}

export { TX_TYPES } from "../../lib/format";
export type { TxType } from "../../api/types";

/** DateFileName starts with the sortable local time; `date` is MM/DD/YYYY for people. */
const sortValue = (t: Transaction, key: SortKey): string | number => {
  switch (key) {
    case "date":
      return t.date_file_name;
    case "amount":
      return t.amount ?? 0;
    case "company":
      return (t.company ?? "").toLowerCase();
    case "category":
      return (t.category ?? "").toLowerCase();
    case "type":
      return t.transaction_type ?? "";
  }
};

export function sortRows(rows: Transaction[], sort: Sort): Transaction[] {
  return [...rows].sort((a, b) => {
    const x = sortValue(a, sort.key);
    const y = sortValue(b, sort.key);
    return (x < y ? -1 : x > y ? 1 : 0) * sort.dir || (a.tx_id < b.tx_id ? -1 : 1);
  });
}

export function filterRows(rows: Transaction[], f: Filter): Transaction[] {
  const text = f.text.trim().toLowerCase();
  return rows.filter(
    (t) =>
      (!f.category || (t.category ?? "").toLowerCase() === f.category.toLowerCase()) &&
      (!f.type || t.transaction_type === f.type) &&
      (!text ||
        [t.company, t.category, t.institution, t.comment, t.amount?.toFixed(2)].some((v) =>
          (v ?? "").toLowerCase().includes(text),
        )),
  );
}

/** YYYY-MM-DD of a transaction (from its DateFileName prefix). */
export const txDay = (t: Transaction) => t.date_file_name.slice(0, 10);

export function monthsEnding(end: string, n: number): string[] {
  const [y, m] = end.split("-").map(Number) as [number, number];
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - i, 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
  });
}
