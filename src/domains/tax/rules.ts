/**
 * Membership algebra and evidence, pure: (category-derived ∪ included) − excluded, per line.
 * Money stays in cents here; the response converts at the boundary (service.ts).
 */
import { type Cents, sumCents, ZERO_CENTS } from "../../lib/money";
import { OTHER_KEY, OTHER_LABEL, type TaxLine, type TaxMapping } from "./mapping";

export type Evidence = "receipt" | "statement" | "email" | "none";

export interface YearRow {
  txId: string;
  forwardedTo: string;
  dateFileName: string;
  amount: Cents;
  company: string;
  category: string;
  statementSource: string | null;
  fileName: string | null;
  receipts: number;
}

export interface Override {
  mode: "include" | "exclude";
  lineKey: string | null;
}

export interface Member {
  row: YearRow;
  evidence: Evidence;
  manual: boolean;
}

export interface LineResult {
  line: TaxLine;
  members: Member[];
  excluded: Member[];
  total: Cents;
  counts: { receipt: number; statement: number; email: number };
}

/** The strongest evidence a row carries: a receipt beats a statement beats the source email. */
export function evidenceOf(r: Pick<YearRow, "receipts" | "statementSource" | "fileName">): Evidence {
  if (r.receipts > 0) return "receipt";
  if (r.statementSource?.trim()) return "statement";
  if (r.fileName?.trim()) return "email";
  return "none";
}

/** The line a row derives from its category (lowercased), or null. */
const derivedLine = (m: TaxMapping, category: string) =>
  m.byCategory.get(category.trim().toLowerCase()) ?? null;

/**
 * Where an include lands: its target line when the row's category is mapped, else Other claimable
 * (SPEC: an included row of an unmapped category, and any include targeting `other`).
 */
function includeTarget(m: TaxMapping, category: string, lineKey: string | null): string {
  if (!lineKey || lineKey === OTHER_KEY) return OTHER_KEY;
  return derivedLine(m, category) === null ? OTHER_KEY : lineKey;
}

const otherLine = (): TaxLine => ({
  key: OTHER_KEY,
  label: OTHER_LABEL,
  cra_ref: null,
  note: null,
  categories: [],
});

/** Every mapped line in mapping order, plus Other claimable when it has a member. */
export function buildLines(
  m: TaxMapping,
  rows: YearRow[],
  overrides: ReadonlyMap<string, Override>,
): LineResult[] {
  const results = new Map<string, LineResult>();
  const empty = (line: TaxLine): LineResult => ({
    line,
    members: [],
    excluded: [],
    total: ZERO_CENTS,
    counts: { receipt: 0, statement: 0, email: 0 },
  });
  for (const line of m.lines) results.set(line.key, empty(line));
  results.set(OTHER_KEY, empty(otherLine()));
  for (const row of rows) {
    const o = overrides.get(row.txId);
    const derived = derivedLine(m, row.category);
    const evidence = evidenceOf(row);
    if (o?.mode === "include") {
      const target = results.get(includeTarget(m, row.category, o.lineKey)) ?? results.get(OTHER_KEY)!;
      target.members.push({ row, evidence, manual: true });
    } else if (derived !== null) {
      const line = results.get(derived)!;
      if (o?.mode === "exclude") line.excluded.push({ row, evidence, manual: true });
      else line.members.push({ row, evidence, manual: false });
    }
  }
  const out: LineResult[] = [];
  for (const r of results.values()) {
    if (r.line.key === OTHER_KEY && r.members.length === 0) continue;
    r.members.sort(byDate);
    r.excluded.sort(byDate);
    r.total = sumCents(r.members.map((x) => x.row.amount));
    for (const x of r.members) if (x.evidence !== "none") r.counts[x.evidence]++;
    out.push(r);
  }
  return out;
}

const byDate = (a: Member, b: Member) =>
  a.row.dateFileName < b.row.dateFileName ? -1 : a.row.dateFileName > b.row.dateFileName ? 1 : 0;

/** `YYYY-MM-DD` of a DateFileName (`YYYY.MM.DD_HH.MM_…`, already in the configured zone). */
export const isoDay = (dateFileName: string) => dateFileName.slice(0, 10).replaceAll(".", "-");

/** The DateFileName range of a calendar year: [`YYYY.`, `YYYY+1.`). */
export const yearRange = (year: number): [string, string] => [`${year}.`, `${year + 1}.`];
