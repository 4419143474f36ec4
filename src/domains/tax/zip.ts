/**
 * What the tax pack zip holds, in order: the CSVs, then every evidence file (export-steps.ts writes
 * them). No D1 or R2 here: export.ts hands in the openers.
 */
import { plainCents, ZERO_CENTS, addCents } from "../../lib/money";
import { csvCell } from "../transactions/search-rules";
import type { LineResult } from "./rules";
import { isoDay } from "./rules";

interface ReceiptRef {
  id: string;
  r2Key: string;
  contentType: string;
}

export interface ZipSources {
  /** The stored receipt's body, or null when the object is gone. */
  openReceipt(r2Key: string): Promise<ReadableStream<Uint8Array> | null>;
  /** The source alert as text (email-evidence rows). */
  emailText(txId: string): Promise<string | null>;
}

const EXT: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "application/pdf": "pdf",
};

/** A path segment from user text: ASCII letters and digits only (never the raw name). */
export function slug(s: string): string {
  const out = s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return out || "row";
}

const SUMMARY_HEADER = [
  "line",
  "label",
  "total",
  "transactions",
  "receipt",
  "statement",
  "email",
  "excluded",
  "note",
];
const LINE_HEADER = [
  "date",
  "company",
  "category",
  "amount",
  "evidence",
  "manual",
  "evidence_files",
  "tx_id",
];
const row = (cells: unknown[]) => `${cells.map(csvCell).join(",")}\r\n`;

/** Every file a line's rows bring, by row: receipts first, the email text for email-evidence rows. */
function evidencePlan(line: LineResult, receipts: ReadonlyMap<string, ReceiptRef[]>) {
  return line.members.map((m, i) => {
    const stem = `evidence/${line.line.key}/${isoDay(m.row.dateFileName)}_${String(i + 1).padStart(3, "0")}_${slug(m.row.company)}`;
    const files: PackFile[] = [];
    if (m.evidence === "receipt")
      for (const r of receipts.get(m.row.txId) ?? [])
        files.push({ path: `${stem}_${r.id}.${EXT[r.contentType] ?? "bin"}`, r2Key: r.r2Key });
    if (m.evidence === "email") files.push({ path: `${stem}_email.txt`, email: m.row.txId });
    return { member: m, files };
  });
}

function summaryCsv(lines: LineResult[]): string {
  let out = row(SUMMARY_HEADER);
  let grand = ZERO_CENTS;
  for (const l of lines) {
    grand = addCents(grand, l.total);
    out += row([
      l.line.key,
      l.line.label,
      plainCents(l.total),
      l.members.length,
      l.counts.receipt,
      l.counts.statement,
      l.counts.email,
      l.excluded.length,
      l.line.note ?? "",
    ]);
  }
  return (
    out +
    row([
      "total",
      "All lines",
      plainCents(grand),
      lines.reduce((s, l) => s + l.members.length, 0),
      "",
      "",
      "",
      "",
      "",
    ])
  );
}

function lineCsv(plan: ReturnType<typeof evidencePlan>): string {
  let out = row(LINE_HEADER);
  for (const { member: m, files } of plan)
    out += row([
      isoDay(m.row.dateFileName),
      m.row.company,
      m.row.category,
      plainCents(m.row.amount),
      m.evidence,
      m.manual ? "yes" : "no",
      files.map((f) => f.path).join(" "),
      m.row.txId,
    ]);
  return out;
}

/** An evidence file of the pack: a stored receipt (its R2 key) or an alert's text (its tx id). */
export interface PackFile {
  path: string;
  r2Key?: string;
  email?: string;
}

/** The whole pack, in zip order: the CSVs (name, text), then every evidence file. */
export interface PackFiles {
  texts: [string, string][];
  files: PackFile[];
}

/** What the zip holds. */
export function packFiles(lines: LineResult[], receipts: ReadonlyMap<string, ReceiptRef[]>): PackFiles {
  const plans = lines.map((l) => ({ line: l, plan: evidencePlan(l, receipts) }));
  const texts: [string, string][] = [["summary.csv", summaryCsv(lines)]];
  for (const { line, plan } of plans) texts.push([`lines/${line.line.key}.csv`, lineCsv(plan)]);
  const files = plans.flatMap(({ plan }) => plan.flatMap((p) => p.files));
  return { texts, files };
}

/** An evidence file's body: the alert's text, the receipt's stream, or null when it is gone. */
export const openEvidence = (src: ZipSources, f: PackFile) =>
  f.email ? src.emailText(f.email) : f.r2Key ? src.openReceipt(f.r2Key) : Promise.resolve(null);
