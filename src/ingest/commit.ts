/**
 * Steps 4-7 for one parsed transaction: categorize, write with dedup, context, notify.
 * Shared by the deterministic path, the AI-rescue path, parse-failure retry and resolve.
 */
import { log } from "../lib/log";
import { categorize } from "./categorize";
import type { Categorized } from "./categorize";
import { computeContext, saveContext } from "./context";
import { addTransaction, transactionHash } from "./dedup";
import { safeSend, shouldNotify, transactionMessage } from "./notify";
import type { ExtractionAudit, IngestDeps, TransactionRecord } from "./types";

/** Everything of a transaction except what steps 4-5 compute. */
export type Draft = Omit<
  TransactionRecord,
  "TransactionHash" | "Category" | "CategoryAudit" | "TransactionContext"
> & {
  ExtractionAudit: ExtractionAudit | null;
};

export type CommitResult =
  | { status: "created"; tx: TransactionRecord }
  | { status: "duplicate"; tx: TransactionRecord }
  | { status: "invalid"; reason: string };

/** A write that rejects the fields themselves (not an outage): quarantine as db_validation_failed. */
const isFieldRejection = (err: unknown) =>
  /constraint|too ?big|datatype mismatch|string or blob too big/i.test(String(err));

export async function commitTransaction(
  deps: IngestDeps,
  draft: Draft,
  opts: { category?: Categorized; attentionReason?: string; notify?: boolean } = {},
): Promise<CommitResult> {
  // 4. Categorize (overrides always; the model only when enabled).
  const cat =
    opts.category ??
    (await categorize(
      { db: deps.db, clock: deps.clock, ai: deps.ai, aiEnabled: deps.settings.aiCategorizationEnabled },
      { amount: draft.Amount, company: draft.Company, transactionType: draft.TransactionType },
    ));
  const tx: TransactionRecord = {
    ...draft,
    TransactionHash: await transactionHash({
      forwardedTo: draft.ForwardedTo,
      institution: draft.Institution,
      amount: draft.Amount,
      company: draft.Company,
      date: draft.Date,
      transactionType: draft.TransactionType,
    }),
    Category: cat.category.toLowerCase(),
    CategoryAudit: cat.audit,
    TransactionContext: null,
  };
  // 5. Write with duplicate detection.
  let added: string | false | undefined;
  try {
    added = await addTransaction(deps.db, tx, deps.clock().toISOString());
  } catch (err) {
    if (!isFieldRejection(err)) throw err;
    return { status: "invalid", reason: String(err) };
  }
  if (added === undefined) return { status: "invalid", reason: "fields rejected by validation" };
  if (added === false) return { status: "duplicate", tx: await storedTwin(deps.db, tx) };
  if (opts.attentionReason)
    await markAttention(deps.db, tx, opts.attentionReason, deps.clock().toISOString());
  // 6. Context (never blocks).
  const context = await computeContext(deps.db, tx);
  if (context) {
    tx.TransactionContext = context;
    await saveContext(deps.db, tx, context);
  }
  // 7. Notify (provider failures never lose the transaction).
  if (opts.notify !== false && shouldNotify(tx, deps.settings.blockedCompanies)) {
    await safeSend(deps.notify, transactionMessage(tx, cat.category));
  }
  return { status: "created", tx };
}

/** The already-stored row's key for a duplicate (what callers report), else the candidate. */
async function storedTwin(db: D1Database, tx: TransactionRecord): Promise<TransactionRecord> {
  try {
    const dfn = await db
      .prepare("SELECT DateFileName FROM transactions WHERE ForwardedTo = ? AND TransactionHash = ?")
      .bind(tx.ForwardedTo, tx.TransactionHash)
      .first<string>("DateFileName");
    return dfn ? { ...tx, DateFileName: dfn } : tx;
  } catch {
    return tx;
  }
}

async function markAttention(db: D1Database, tx: TransactionRecord, reason: string, nowIso: string) {
  try {
    await db
      .prepare(
        "INSERT OR IGNORE INTO attention_queue (ForwardedTo, DateFileName, reason, created_at) VALUES (?, ?, ?, ?)",
      )
      .bind(tx.ForwardedTo, tx.DateFileName, reason, nowIso)
      .run();
  } catch (err) {
    log("warn", "ingest.attention_mark_failed", { error: String(err) });
  }
}
