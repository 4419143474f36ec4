// What an activity entry changed, in the UI's words: built from the entry's before/after images
// (the same ones undo restores), with categories spelled as the category list spells them, so the
// ledger reads "Starbucks: Coffee & Cafes → Groceries", not an operation id or a lower-cased key.
import type { ActivityEntry } from "../api/types";
import { stageWords } from "../lib/failure-words";
import { categoryLabel, money, typeLabel } from "../lib/format";

type Img = Record<string, unknown> | null | undefined;
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v : null);
const has = (img: Img, k: string) => !!img && Object.hasOwn(img, k);

export interface Vocabulary {
  categories: string[];
  /** Other entries on screen, to name what an undo undid. */
  byId?: Map<string, ActivityEntry>;
}

/** One line for an entry; null when the images say nothing a person would recognise. */
export function describeEntry(e: ActivityEntry, v: Vocabulary, depth = 0): string | null {
  const before = e.before as Img;
  const after = e.after as Img;
  const cat = (c: unknown) => (str(c) ? categoryLabel(String(c), v.categories) : "no category");
  if (e.operation_id === "revertActivity") {
    const undone = e.path?.match(/activity\/([^/]+)\/revert/)?.[1];
    const original = undone ? v.byId?.get(undone) : undefined;
    const what = original && depth === 0 ? describeEntry(original, v, 1) : null;
    return what ? `Undid: ${what}` : null;
  }
  // A transaction's images (the drawer, the ledger, bulk edits, MCP tools).
  if (has(before, "Category") || has(after, "Category")) {
    const company = str(after?.Company) ?? str(before?.Company) ?? "A transaction";
    // A row added (a hand add: before is `{}`): what was added, not a diff against nothing.
    if (after && (!before || Object.keys(before).length === 0)) {
      const amount = typeof after.Amount === "number" ? ` ${money(after.Amount)}` : "";
      return `Added ${company}${amount}${str(after.Category) ? `, ${cat(after.Category)}` : ""}`;
    }
    const parts: string[] = [];
    if (before?.Category !== after?.Category && has(after, "Category"))
      parts.push(`${cat(before?.Category)} → ${cat(after?.Category)}`);
    if (before?.Comment !== after?.Comment && has(after, "Comment"))
      parts.push(str(after?.Comment) ? `comment “${after?.Comment}”` : "comment removed");
    if (before?.Ignored !== after?.Ignored && has(after, "Ignored"))
      parts.push(after?.Ignored ? "ignored" : "counted again");
    if (before?.DeletedAt !== after?.DeletedAt && has(after, "DeletedAt"))
      parts.push(after?.DeletedAt ? "moved to the trash" : "restored from the trash");
    if (
      before?.Amount !== after?.Amount &&
      typeof after?.Amount === "number" &&
      typeof before?.Amount === "number"
    )
      parts.push(`${money(before.Amount as number)} → ${money(after.Amount as number)}`);
    if (before?.TransactionType !== after?.TransactionType && str(after?.TransactionType))
      parts.push(`type ${typeLabel(String(after?.TransactionType))}`);
    if (before?.Company !== after?.Company && str(before?.Company) && str(after?.Company))
      parts.push(`renamed from ${before?.Company}`);
    if (!before || Object.keys(before).length === 0)
      return `Added ${company}${parts.length ? `: ${parts.join(", ")}` : ""}`;
    return parts.length ? `${company}: ${parts.join(", ")}` : null;
  }
  // Statement review edits: { status, rows: { index: { action, edited_company, edited_category } } }.
  const rowsBefore = before?.rows as Record<string, Img> | undefined;
  const rowsAfter = after?.rows as Record<string, Img> | undefined;
  if (rowsAfter && typeof rowsAfter === "object") {
    const lines: string[] = [];
    for (const [i, a] of Object.entries(rowsAfter)) {
      const b = rowsBefore?.[i];
      const parts: string[] = [];
      if (a?.edited_category !== b?.edited_category && str(a?.edited_category))
        parts.push(`category ${cat(a?.edited_category)}`);
      if (a?.edited_company !== b?.edited_company && str(a?.edited_company))
        parts.push(`merchant ${a?.edited_company}`);
      if (a?.action !== b?.action && str(a?.action))
        parts.push(ROW_ACTIONS[String(a?.action)] ?? String(a?.action));
      if (parts.length) lines.push(`row ${i}: ${parts.join(", ")}`);
    }
    if (lines.length === 1) return `Statement ${lines[0]}`;
    if (lines.length > 1)
      return `${lines.length} statement rows edited (${lines.slice(0, 2).join("; ")}${lines.length > 2 ? "; …" : ""})`;
    return null;
  }
  // A merchant rule (override): { company, category }.
  if (e.operation_id?.endsWith("Override") || (has(after, "company") && has(after, "category"))) {
    const company = str(after?.company) ?? str(before?.company) ?? e.resource_id ?? "a merchant";
    if (!after || Object.keys(after).length === 0) return `Removed the rule for ${company}`;
    if (before && str(before.category) && before.category !== after.category)
      return `Rule for ${company}: ${cat(before.category)} → ${cat(after.category)}`;
    return `Rule: ${company} → ${cat(after.category)}`;
  }
  return null;
}

const ROW_ACTIONS: Record<string, string> = {
  import: "to be imported",
  skip: "skipped",
  enrich: "to add its details to the stored row",
  update: "to update the stored row",
};

/** The stored column names an entry's "What changed" lists, in words (audit details left out). */
export const FIELD_WORDS: Record<string, string | null> = {
  Category: "Category",
  CategoryAudit: null,
  Comment: "Comment",
  Amount: "Amount",
  Company: "Merchant",
  TransactionType: "Type",
  Ignored: "Ignored",
  DeletedAt: "In the trash since",
  company: "Merchant",
  category: "Category",
};

/**
 * A server summary in words: a quarantine's ("quarantined: pf_… (no_parser_match)") says why in
 * words; any other id (`pf_…`, `tx_…`, hex runs) and code is left out.
 */
export function summaryWords(summary: string | null | undefined): string | null {
  if (!summary) return null;
  const q = /^quarantined: \S+ \(([a-z_]+)\)$/.exec(summary);
  if (q) return `An alert could not be read (${stageWords(q[1])}); it waits under Needs review`;
  const out = summary
    .replace(/\b[a-z]{1,6}_[0-9a-f]{6,}\b/gi, "")
    .replace(/\b[0-9a-f]{12,}\b/gi, "")
    .replace(/\(\s*\)/g, "")
    .replace(/\s{2,}/g, " ")
    .trim();
  return out || null;
}
