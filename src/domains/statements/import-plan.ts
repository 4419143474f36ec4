/**
 * The plan of a statement import, pure: from the statement's rows (with the person's actions
 * applied), their synthetic keys stored at upload, and the stored transactions those keys and
 * matches name, what to insert, what to patch, and each row's result. The import then writes the
 * whole plan in ONE batch (import.ts), so a failure midway leaves nothing imported.
 */
import type { Cents } from "../../lib/money";
import type { TransactionRow } from "../../db/schema";
import type { StatementRecord, StatementRowRecord } from "../../db/schema";
import { givenRecord } from "../../ingest/commit";
import { validateRecord } from "../../ingest/dedup";
import { readCategoryAudit } from "../../ingest/stored";
import type { TransactionRecord } from "../../ingest/types";
import { categoryAudit } from "../../categorize";
import { isManualCategory, isMisc, statementDate } from "./rules";
import { STATEMENT_RECIPIENT } from "./views";

export type TxImage = {
  Amount: Cents | null;
  Company: string | null;
  Category: string | null;
  /** The stored audit map (older ledger images hold it as JSON text: read it with readCategoryAudit). */
  CategoryAudit: TransactionRow["CategoryAudit"];
  StatementSource: string | null;
};

export const keyOf = (fwd: string, dfn: string) => `${fwd}\n${dfn}`;

export interface PlanInput {
  stmt: StatementRecord;
  /** Unsettled rows, actions applied. */
  pending: StatementRowRecord[];
  /** tx_index → synthetic key (DateFileName). */
  keys: Map<number, string>;
  /** synthetic key → its TransactionHash (sha256 of `statement|key`). */
  hashes: Map<string, string>;
  /** `fwd\ndfn` → the stored transaction (only those that exist). */
  existing: Map<string, TxImage>;
  userId: string;
  source: string;
  nowIso: string;
}

export interface ImportPlan {
  inserts: TransactionRecord[];
  patches: { fwd: string; dfn: string; patch: Partial<TxImage> }[];
  /** tx_index → imported | duplicate | invalid | enriched | updated | skipped */
  results: Map<number, string>;
  counts: { imported: number; skipped: number; duplicates: number; enriched: number; updated: number };
  /** Keys of the transactions this import creates or changes. */
  touched: string[];
}

/** The transaction fields an enrich or update writes, or null when it would change nothing. */
export function enrichPatch(
  row: StatementRowRecord,
  stored: TxImage,
  mode: "enrich" | "update",
  source: string,
  nowIso: string,
): Partial<TxImage> | null {
  const patch: Partial<TxImage> = {};
  const company =
    row.edited_company ?? (mode === "update" || !stored.Company?.trim() ? row.cleaned_description : null);
  if (company && company !== stored.Company) patch.Company = company;
  const prev = readCategoryAudit(stored.CategoryAudit)?.source;
  const prevSource = typeof prev === "string" ? prev : null;
  const wanted = (row.edited_category ?? row.suggested_category).toLowerCase();
  const manual = isManualCategory(prevSource) && mode === "enrich";
  const downgrade = isMisc(wanted) && !isMisc(stored.Category);
  if (!manual && !downgrade && wanted !== (stored.Category ?? "").toLowerCase()) {
    patch.Category = wanted;
    patch.CategoryAudit = {
      ...categoryAudit({
        source: "statement_enrich",
        confidence: row.edited_category ? 1 : null,
        reviewed_at: row.edited_category ? nowIso : null,
        previous_category: stored.Category,
        previous_source: prevSource,
      }),
    };
  }
  if (!stored.StatementSource) patch.StatementSource = source;
  return Object.keys(patch).length ? patch : null;
}

/** The record an imported row becomes (SPEC.md's synthetic key; email-only fields empty). */
function importRecord(p: PlanInput, r: StatementRowRecord, dfn: string): TransactionRecord {
  return givenRecord(
    {
      ForwardedTo: STATEMENT_RECIPIENT,
      DateFileName: dfn,
      TransactionHash: p.hashes.get(dfn)!,
      UserId: p.userId,
      Institution: p.stmt.institution,
      Amount: r.amount,
      Company: r.edited_company ?? r.cleaned_description,
      TransactionType: r.type,
      Name: null,
      Date: statementDate(r.date),
      FileName: "",
      FromName: "",
      FromEmail: "",
      ToName: "",
      ToEmail: "",
      Subject: "",
      Body: "",
      StatementSource: p.source,
    },
    {
      by: "given",
      category: r.edited_category ?? r.suggested_category,
      source: "statement_import",
      reviewed: r.edited_category !== null,
    },
    p.nowIso,
  );
}

const COUNTER: Record<string, keyof ImportPlan["counts"]> = {
  imported: "imported",
  duplicate: "duplicates",
  enriched: "enriched",
  updated: "updated",
};

export function planImport(p: PlanInput): ImportPlan {
  const plan: ImportPlan = {
    inserts: [],
    patches: [],
    results: new Map(),
    counts: { imported: 0, skipped: 0, duplicates: 0, enriched: 0, updated: 0 },
    touched: [],
  };
  const seen = new Set<string>();
  for (const r of p.pending) {
    let result = "skipped";
    if (r.action === "import") {
      const dfn = p.keys.get(r.tx_index)!;
      const key = keyOf(STATEMENT_RECIPIENT, dfn);
      if (p.existing.has(key) || seen.has(key)) result = "duplicate";
      else {
        const tx = importRecord(p, r, dfn);
        if (validateRecord(tx).length) result = "invalid";
        else {
          plan.inserts.push(tx);
          plan.touched.push(key);
          seen.add(key);
          result = "imported";
        }
      }
    } else if ((r.action === "enrich" || r.action === "update") && r.db_date_file_name) {
      const key = keyOf(r.db_forwarded_to!, r.db_date_file_name);
      const stored = p.existing.get(key);
      if (stored) {
        result = r.action === "enrich" ? "enriched" : "updated";
        plan.touched.push(key);
        const patch = enrichPatch(r, stored, r.action, p.source, p.nowIso);
        if (patch) plan.patches.push({ fwd: r.db_forwarded_to!, dfn: r.db_date_file_name, patch });
      }
    }
    plan.counts[COUNTER[result] ?? "skipped"]++;
    plan.results.set(r.tx_index, result);
  }
  return plan;
}
