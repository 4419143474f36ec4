/**
 * The one commit path of a transaction, whatever found it: a parsed or AI-rescued email, a
 * parse-failure retry or resolve, a hand entry, a statement import. Steps 4-7 of the pipeline:
 * categorize, write with dedup, context, notify; each caller says which of them apply.
 */
import { type Categorized, categorize, categoryAudit } from "../categorize";
import { storedName, tidyName } from "../categorize/normalize";
import type { JournalEntry, ServiceCtx } from "../lib/context";
import { log } from "../lib/log";
import { markAttentionRow } from "../domains/transactions/attention-queries";
import { safeSend } from "../notify";
import type { Statement } from "../db/lists";
import { contextWriter } from "./context";
import { addTransaction, storeErrorText, transactionHash, type WriteBatch } from "./dedup";
import { shouldNotify, transactionMessage } from "./notify";
import type { ExtractionAudit, IngestDeps, TransactionContext, TransactionRecord } from "./types";

/** Everything of a transaction except what the commit computes (hash, category, context). */
export type Draft = Omit<
  TransactionRecord,
  | "TransactionHash"
  | "Category"
  | "CategoryAudit"
  | "TransactionContext"
  | "ExtractionAudit"
  | "StatementSource"
> & {
  ExtractionAudit?: ExtractionAudit | null;
  /** Set by the statement import: which statement the row came from. */
  StatementSource?: string | null;
  /**
   * A caller with its own identity rule supplies the hash (statement lines: two identical lines on
   * one day are two transactions, told apart by occurrence); everyone else gets SPEC's hash.
   */
  TransactionHash?: string;
};

/** How the category is chosen. */
export type CategoryChoice =
  /** Overrides, then (when a provider exists and AI categorization is on) fuzzy and the model. */
  | { by: "auto" }
  /** Overrides only, else Miscellaneous: hand-entered rows never go to the model. */
  | { by: "overrides" }
  /** Named by a person (reviewed) or by the source document (a statement line). */
  | { by: "given"; category: string; source: string; reviewed: boolean };

export interface CommitOptions {
  category?: CategoryChoice;
  /** Step 7 (default true; only rows a person did not type notify). */
  notify?: boolean;
  /** Put the row on the attention queue (AI-rescued rows). */
  attentionReason?: string;
  /**
   * The caller's statements that hold whether the row is created or a duplicate (the sender's
   * parse note): first in the insert's own batch.
   */
  followUp?: Statement[];
  /**
   * The verb's ledger entry for a created row: queued and written in the insert's own batch, only
   * when the row was inserted (`ifChanged`), so it exists iff the commit says "created". Built for
   * the key the row is written under (a same-minute collision suffixes it).
   */
  journal?: { ctx: Pick<ServiceCtx, "journal" | "batch">; entry: (tx: TransactionRecord) => JournalEntry };
  /**
   * The caller's writes that belong to a created row (a resolved failure's status), for the key it
   * is written under: in the insert's own batch, after it, each guarded on `changes() > 0` by the
   * caller (so they apply only when the row was inserted, and a journal entry still follows them).
   */
  withRow?: (dateFileName: string) => Statement[];
}

export type CommitResult =
  /**
   * `activityId`: the entry of `journal` written with the row (when one was asked for);
   * `rowResults`: the results of `withRow`'s statements in the insert's batch.
   */
  | { status: "created"; tx: TransactionRecord; activityId?: string; rowResults: unknown[] }
  | { status: "duplicate"; tx: TransactionRecord }
  | { status: "invalid"; reason: string };

/** A write that rejects the fields themselves (not an outage): quarantine as db_validation_failed. */
const isFieldRejection = (err: unknown) =>
  /constraint|too ?big|datatype mismatch|string or blob too big/i.test(storeErrorText(err));

/**
 * Bidirectional control characters (embeddings, overrides, isolates, marks): in a name they can
 * make it display reversed or disguised, and they carry no meaning in a merchant or payee name.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** A company or person name as stored: no bidi controls, whitespace collapsed, empty → null. */
export function cleanName(name: string | null | undefined): string | null {
  if (typeof name !== "string") return null;
  const cleaned = name.replace(BIDI_CONTROLS, "").replace(/\s+/g, " ").trim();
  return cleaned === "" ? null : cleaned;
}

/** The draft with its names cleaned; every source (parsed, AI-rescued, resolved, typed) passes here. */
function cleanDraft(draft: Draft): Draft {
  return { ...draft, Company: cleanName(draft.Company), Name: cleanName(draft.Name) };
}

/** The dedup hash of a draft (hand entry names its file after it). */
export function draftHash(draft: Draft): Promise<string> {
  return transactionHash({
    forwardedTo: draft.ForwardedTo,
    institution: draft.Institution,
    amount: draft.Amount,
    company: cleanName(draft.Company),
    date: draft.Date,
    transactionType: draft.TransactionType,
  });
}

/** The category choice of a hand entry: the typed category, else overrides only. */
export const typedCategory = (category: string | null | undefined): CategoryChoice =>
  category ? { by: "given", category, source: "manual", reviewed: true } : { by: "overrides" };

const givenCategory = (choice: Extract<CategoryChoice, { by: "given" }>, nowIso: string): Categorized => ({
  category: choice.category,
  audit: categoryAudit({
    source: choice.source,
    confidence: 1,
    reviewed_at: choice.reviewed ? nowIso : null,
  }),
});

/**
 * The record of a cleaned draft with its hash and category (no context yet). The company is
 * stored without what never names the payer (`storedName`: an e-Transfer's `| message | reference`
 * tail, reference codes), so one payer is one row in every view and rules match it; the dedup hash
 * is taken before, on the name as read, so two transfers of one payer on one day stay two rows.
 * The category is stored tidied and lowercased (its identity is `categoryKey`).
 */
const toRecord = (draft: Draft, hash: string, cat: Categorized): TransactionRecord => ({
  ...draft,
  Company: storedName(draft.Company) || null,
  ExtractionAudit: draft.ExtractionAudit ?? null,
  StatementSource: draft.StatementSource ?? null,
  TransactionHash: hash,
  Category: tidyName(cat.category).toLowerCase(),
  CategoryAudit: cat.audit,
  TransactionContext: null,
});

/**
 * The record of a draft whose category is given, built as the commit builds it (names cleaned,
 * one CategoryAudit builder) but without I/O: what a caller that writes many rows in one batch
 * (the statement import) inserts, with `validateRecord` and `toRow` of dedup.ts.
 */
export function givenRecord(
  given: Draft & { TransactionHash: string },
  choice: Extract<CategoryChoice, { by: "given" }>,
  nowIso: string,
): TransactionRecord {
  return toRecord(cleanDraft(given), given.TransactionHash, givenCategory(choice, nowIso));
}

/**
 * Steps 4-7: categorize, then ONE batch writes the row with dedup, its month context and the
 * caller's statements (`followUp`, `withRow`, the verb's entry); notify after. A failing batch
 * throws (the door keeps the email for a retry).
 */
export async function commitTransaction(
  deps: Pick<IngestDeps, "db" | "clock" | "ai" | "notify" | "settings">,
  given: Draft,
  opts: CommitOptions = {},
): Promise<CommitResult> {
  const read = cleanDraft(given);
  // 4. Categorize, on the name as read: a rule written for "Safeway #1432" still matches exactly,
  // and the resolver's normalized tier compares identities.
  const choice = opts.category ?? { by: "auto" };
  const cat =
    choice.by === "given"
      ? givenCategory(choice, deps.clock().toISOString())
      : await categorize(deps, {
          amount: read.Amount,
          company: read.Company,
          transactionType: read.TransactionType,
          overridesOnly: choice.by === "overrides",
        });
  const tx = toRecord(read, read.TransactionHash ?? (await draftHash(read)), cat);
  // 5-6. Write with duplicate detection; the context is written right after the insert.
  const context = await contextWriter(deps.db, tx, deps.settings.prefetched?.targets);
  const ledger = opts.journal ? journaledWrite(opts.journal, tx) : undefined;
  let written: Awaited<ReturnType<typeof addTransaction>>;
  try {
    written = await addTransaction(deps.db, {
      tx,
      createdAt: deps.clock().toISOString(),
      write: ledger?.write,
      withRow: (dfn) => [...(context ? [context(dfn)] : []), ...(opts.withRow?.(dfn) ?? [])],
      lead: opts.followUp,
    });
  } catch (err) {
    if (!isFieldRejection(err)) throw err;
    return { status: "invalid", reason: storeErrorText(err) };
  }
  const { added, twin, rows = [] } = written;
  if (added === undefined) return { status: "invalid", reason: "fields rejected by validation" };
  // A duplicate reports the already-stored row's key.
  if (added === false) return { status: "duplicate", tx: twin ? { ...tx, DateFileName: twin } : tx };
  if (context)
    tx.TransactionContext = (rows[0] as { context: TransactionContext | null }[])[0]?.context ?? null;
  if (opts.attentionReason) {
    const key = { forwardedTo: tx.ForwardedTo, dateFileName: tx.DateFileName };
    await markAttentionRow(deps.db, key, opts.attentionReason, deps.clock().toISOString()).catch((err) =>
      log("warn", "ingest.attention_mark_failed", { error: String(err) }),
    );
  }
  // 7. Notify (provider failures never lose the transaction).
  if (opts.notify !== false && shouldNotify(tx, deps.settings.blockedCompanies)) {
    await safeSend(deps.notify, transactionMessage(tx, cat.category));
  }
  return {
    status: "created",
    tx,
    ...(ledger ? { activityId: ledger.id() } : {}),
    rowResults: rows.slice(context ? 1 : 0),
  };
}

/**
 * The insert's batches run through the verb's ledger: each (a same-minute collision takes another)
 * queues the entry, under one id, for the key it writes, and writes it only when the insert changed
 * a row.
 */
function journaledWrite(j: NonNullable<CommitOptions["journal"]>, tx: TransactionRecord) {
  let id: string | undefined;
  const write: WriteBatch = (stmts, dfn) => {
    const entry = j.entry({ ...tx, DateFileName: dfn });
    id = j.ctx.journal({ ...entry, id: id ?? entry.id });
    return j.ctx.batch(stmts, { ifChanged: true });
  };
  return { write, id: () => id };
}
