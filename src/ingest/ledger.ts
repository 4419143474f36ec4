/**
 * The ledger of a verb that runs the pipeline (IngestDeps.ledger: the upload-eml door's request
 * context): each outcome's entry rides in the write that settles the email. A created row's entry
 * is written with the insert (CommitOptions.journal, guarded: only when the row was inserted); a
 * quarantined or ignored email's with its parse_failures or ignored_emails write; a duplicate's
 * with the sender's parse note when there is one, else the door writes it (nothing changed). No
 * ledger (the other doors): the same writes.
 */
import type { Statement } from "../db/lists";
import type { JournalEntry, ServiceCtx } from "../lib/context";
import { log } from "../lib/log";
import { fromCents } from "../lib/money";
import { encodeTxId } from "../lib/txid";
import type { CommitOptions } from "./commit";
import type { IngestDeps, TransactionRecord } from "./types";

export type IngestLedger = Pick<ServiceCtx, "journal" | "batch">;

/** A created or duplicate row's entry: the row's id and what became of it. */
export const rowEntry = (status: "created" | "duplicate", tx: TransactionRecord): JournalEntry => ({
  resourceId: encodeTxId(tx.ForwardedTo, tx.DateFileName),
  summary: `${status}: ${tx.Company ?? "(no company)"} ${fromCents(tx.Amount)}`,
});

/** The created row's entry for the commit's insert batch (none without a ledger). */
export const rowJournal = (deps: Pick<IngestDeps, "db" | "ledger">): Pick<CommitOptions, "journal"> =>
  deps.ledger ? { journal: { ctx: deps.ledger, entry: (tx) => rowEntry("created", tx) } } : {};

/**
 * Runs `stmt` with the entry in one batch (without a ledger: alone). When the write
 * fails the entry is queued again under its id, so a caller that goes on (fail-open) still gets
 * it written by the door; a caller that fails drops it with the request.
 */
export async function writeWithEntry(
  deps: Pick<IngestDeps, "db" | "ledger">,
  entry: JournalEntry,
  stmt: Statement,
): Promise<readonly unknown[]> {
  if (!deps.ledger) return deps.db.batch([stmt]);
  const id = deps.ledger.journal(entry);
  try {
    return await deps.ledger.batch([stmt]);
  } catch (err) {
    deps.ledger.journal({ ...entry, id });
    throw err;
  }
}

/**
 * A duplicate: nothing new stored. A verb's ledger gets its entry, written with the sender's parse
 * note when there is one (the note already led the insert's batch: this write is its twin's entry).
 */
export async function duplicateNoted(
  deps: Pick<IngestDeps, "db" | "ledger">,
  tx: TransactionRecord,
  note: Statement | null,
) {
  if (!deps.ledger) return;
  const entry = rowEntry("duplicate", tx);
  if (!note) {
    deps.ledger.journal(entry);
    return;
  }
  try {
    await writeWithEntry(deps, entry, note);
  } catch (err) {
    log("warn", "drift.note_parsed_failed", { error: String(err) });
  }
}
