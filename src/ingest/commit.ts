/**
 * The one commit path of a transaction, whatever found it: a parsed or AI-rescued email, a
 * parse-failure retry or resolve, a hand entry, a statement import. Steps 4-7 of the pipeline:
 * categorize, write with dedup, context, notify; each caller says which of them apply.
 */
import type { AiProvider } from "../ai/provider";
import {
  type Categorized,
  categorize,
  categoryAudit,
  fallbackCategory,
  resolveOverride,
} from "../categorize";
import { storedName, tidyName } from "../categorize/normalize";
import type { Clock } from "../lib/clock";
import type { JournalEntry, ServiceCtx } from "../lib/context";
import { log } from "../lib/log";
import type { Db } from "../db";
import { markAttentionRow } from "../domains/transactions/attention-queries";
import { type Notifier, safeSend } from "../notify";
import type { Statement } from "../db/lists";
import {
  type ContextReads,
  computeContext,
  contextOf,
  contextQueries,
  contextWrite,
  newRowContext,
} from "./context";
import {
  type Added,
  addTransaction,
  storedDateFileName,
  storeErrorText,
  transactionHash,
  type WriteBatch,
} from "./dedup";
import { shouldNotify, transactionMessage } from "./notify";
import type { ExtractionAudit, IngestSettings, TransactionContext, TransactionRecord } from "./types";

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
  /** Step 6 (default true). */
  context?: boolean;
  /** Put the row on the attention queue (AI-rescued rows). */
  attentionReason?: string;
  /**
   * Best-effort statements of the caller that hold whether the row is created or a duplicate (the
   * sender's drift note): first in the insert's own batch; when that batch fails they are left out
   * of the retry and, for a created row, written with the context after it (a failure is logged
   * and never fails the commit).
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

/** What the commit needs; IngestDeps has all of it. */
export interface CommitDeps {
  db: Db;
  clock: Clock;
  ai: AiProvider | null;
  notify?: Notifier;
  settings: Pick<IngestSettings, "aiCategorizationEnabled" | "blockedCompanies" | "prefetched">;
}

export type CommitResult =
  /**
   * `activityId`: the entry of `journal` written with the row (when one was asked for);
   * `rowResults`: the results of `withRow`'s statements in the insert's batch.
   */
  | { status: "created"; tx: TransactionRecord; activityId?: string; rowResults?: unknown[] }
  /** `followedUp`: the caller's `followUp` statements were written (they lead the insert's batch). */
  | { status: "duplicate"; tx: TransactionRecord; followedUp?: boolean }
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

/**
 * The draft as stored: the company without what never names the payer (`storedName`: an
 * e-Transfer's `| message | reference` tail, reference codes), so one payer is one row in every
 * view and rules match it; a store number stays as printed. The dedup hash is taken before, on
 * the name as read, so two transfers of one payer on one day stay two rows.
 */
function identified(draft: Draft): Draft {
  return { ...draft, Company: storedName(draft.Company) || null };
}

/** A category as stored: whitespace tidied, lowercased (its identity is `categoryKey`). */
const storedCategory = (category: string) => tidyName(category).toLowerCase();

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

async function chooseCategory(deps: CommitDeps, draft: Draft, choice: CategoryChoice): Promise<Categorized> {
  if (choice.by === "given") {
    return {
      category: choice.category,
      audit: categoryAudit({
        source: choice.source,
        confidence: 1,
        reviewed_at: choice.reviewed ? deps.clock().toISOString() : null,
      }),
    };
  }
  if (choice.by === "overrides") {
    return (
      (await resolveOverride(
        deps.db,
        deps.clock,
        draft.Company,
        deps.settings.prefetched?.resolverVersion,
      )) ?? fallbackCategory("no_override_matched")
    );
  }
  return categorize(
    {
      db: deps.db,
      clock: deps.clock,
      ai: deps.ai,
      aiEnabled: deps.settings.aiCategorizationEnabled,
      resolverVersion: deps.settings.prefetched?.resolverVersion,
    },
    { amount: draft.Amount, company: draft.Company, transactionType: draft.TransactionType },
  );
}

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
  const draft = identified(cleanDraft(given));
  return {
    ...draft,
    ExtractionAudit: draft.ExtractionAudit ?? null,
    StatementSource: draft.StatementSource ?? null,
    TransactionHash: given.TransactionHash,
    Category: storedCategory(choice.category),
    CategoryAudit: categoryAudit({
      source: choice.source,
      confidence: 1,
      reviewed_at: choice.reviewed ? nowIso : null,
    }),
    TransactionContext: null,
  };
}

export async function commitTransaction(
  deps: CommitDeps,
  given: Draft,
  opts: CommitOptions = {},
): Promise<CommitResult> {
  const read = cleanDraft(given);
  const draft = identified(read);
  // 4. Categorize, on the name as read: a rule written for "Safeway #1432" still matches exactly,
  // and the resolver's normalized tier compares identities.
  const cat = await chooseCategory(deps, read, opts.category ?? { by: "auto" });
  const tx: TransactionRecord = {
    ...draft,
    ExtractionAudit: draft.ExtractionAudit ?? null,
    StatementSource: draft.StatementSource ?? null,
    TransactionHash: read.TransactionHash ?? (await draftHash(read)),
    Category: storedCategory(cat.category),
    CategoryAudit: cat.audit,
    TransactionContext: null,
  };
  // 5. Write with duplicate detection; the context rides in the write's batch: written there when
  // the budget targets were read up front (6 is then done), else its reads (written after, in 6).
  const withContext = opts.context !== false;
  const saveContext = withContext ? newRowContext(deps.db, tx, deps.settings.prefetched?.targets) : null;
  const ledger = opts.journal ? journaledWrite(opts.journal, tx) : undefined;
  let added: Added;
  let reads: unknown[] | null;
  let leadWritten = false;
  let twin: string | undefined;
  let rowResults: unknown[] | undefined;
  try {
    ({
      added,
      after: reads,
      leadWritten,
      twin,
      rows: rowResults,
    } = await addTransaction(deps.db, {
      tx,
      createdAt: deps.clock().toISOString(),
      after: saveContext ? [saveContext] : withContext ? [...contextQueries(deps.db, tx)] : undefined,
      write: ledger?.write,
      withRow: opts.withRow,
      lead: opts.followUp,
    }));
  } catch (err) {
    if (!isFieldRejection(err)) throw err;
    return { status: "invalid", reason: storeErrorText(err) };
  }
  if (added === undefined) return { status: "invalid", reason: "fields rejected by validation" };
  if (added === false) {
    // Report the already-stored row's key, else the candidate's.
    // The stored twin's key came with the insert's check, else (the long way) it is read now.
    const dfn = twin ?? (await storedDateFileName(deps.db, tx.ForwardedTo, tx.TransactionHash));
    return { status: "duplicate", tx: dfn ? { ...tx, DateFileName: dfn } : tx, followedUp: leadWritten };
  }
  if (opts.attentionReason) await markAttention(deps, tx, opts.attentionReason);
  // 6. Context (never blocks), written in one batch with the caller's follow-ups.
  const tail: Statement[] = [];
  if (withContext && saveContext && reads) {
    // Stored with the row: the snapshot its batch wrote.
    tx.TransactionContext = (reads[0] as { context: TransactionContext | null }[])[0]?.context ?? null;
  } else if (withContext) {
    const context =
      reads && !saveContext ? contextOf(tx, reads as ContextReads) : await computeContext(deps.db, tx);
    if (context) {
      tx.TransactionContext = context;
      tail.push(contextWrite(deps.db, tx, context));
    }
  }
  await bestEffort(deps.db, [...tail, ...(leadWritten ? [] : (opts.followUp ?? []))]);
  // 7. Notify (provider failures never lose the transaction).
  if (opts.notify !== false && deps.notify && shouldNotify(tx, deps.settings.blockedCompanies)) {
    await safeSend(deps.notify, transactionMessage(tx, cat.category));
  }
  return {
    status: "created",
    tx,
    ...(ledger ? { activityId: ledger.id() } : {}),
    ...(rowResults ? { rowResults } : {}),
  };
}

/**
 * The insert's batches run through the verb's ledger: each (the long way may take several) queues
 * the entry, under one id, for the key it writes, and writes it only when the insert changed a row.
 * Reads after the insert (the context's) leave `changes()` as the insert set it.
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

/**
 * Best-effort writes in one batch; when it fails, each on its own (one failing write does not
 * take the others with it). Failures are logged, never thrown.
 */
async function bestEffort(db: Db, stmts: Statement[]): Promise<void> {
  if (stmts.length === 0) return;
  const [first, ...rest] = stmts;
  try {
    await db.batch([first!, ...rest]);
    return;
  } catch (err) {
    log("warn", "ingest.context_save_failed", { error: String(err) });
  }
  if (stmts.length === 1) return;
  for (const stmt of stmts) {
    try {
      await stmt;
    } catch (err) {
      log("warn", "ingest.follow_up_failed", { error: String(err) });
    }
  }
}

async function markAttention(deps: CommitDeps, tx: TransactionRecord, reason: string) {
  try {
    const key = { forwardedTo: tx.ForwardedTo, dateFileName: tx.DateFileName };
    await markAttentionRow(deps.db, key, reason, deps.clock().toISOString());
  } catch (err) {
    log("warn", "ingest.attention_mark_failed", { error: String(err) });
  }
}
