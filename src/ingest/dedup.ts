/**
 * Deduplication and the transaction write. SPEC.md: hash over
 * `forwarded_to|institution|amount|company|date|transaction_type`; the check and the insert run in
 * one batch, and the UNIQUE (ForwardedTo, TransactionHash) index makes it atomic, so two
 * concurrent deliveries write one row. add → undefined (invalid), false (duplicate), DateFileName.
 */
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db";
import type { transactions } from "../db/schema";
import { insertUnlessHashed, twinKeyQuery } from "../domains/transactions/ingest-queries";
import type { Statements } from "../lib/context";
import { log } from "../lib/log";
import { type Cents, plainCents, asCents } from "../lib/money";
import { sha256Hex } from "./hash";
import type { TransactionRecord } from "./types";

export interface HashFields {
  forwardedTo: string;
  institution: string;
  amount: Cents;
  company: string | null;
  date: string;
  transactionType: string | null;
}

/** The amount part of the hash: `toFixed(2)` of the decimal ("1687.00", "0.05", no separators). */
export const hashAmount = (cents: Cents): string => plainCents(cents);

/** The pipe-joined hash input; every part trimmed (CRLF mail leaves trailing CRs otherwise). */
export function hashInput(f: HashFields): string {
  return [
    f.forwardedTo.trim().toLowerCase(),
    f.institution.trim(),
    hashAmount(f.amount),
    (f.company ?? "").trim(),
    f.date.trim(),
    (f.transactionType ?? "").trim(),
  ].join("|");
}

export function transactionHash(f: HashFields): Promise<string> {
  return sha256Hex(hashInput(f));
}

/** One hundred million dollars, in cents. */
const MAX_AMOUNT = asCents(10_000_000_000);

/** Why the write would reject these fields (empty when valid). Pure. */
export function validateRecord(
  tx: Pick<TransactionRecord, "Amount" | "Company" | "ForwardedTo" | "TransactionType">,
): string[] {
  const errors: string[] = [];
  if (typeof tx.Amount !== "number" || !Number.isInteger(tx.Amount)) errors.push("amount is not whole cents");
  else if (tx.Amount < 0 || tx.Amount >= MAX_AMOUNT) errors.push("amount out of range");
  if (tx.Company !== null && (tx.Company.length > 500 || /[\u0000-\u0008]/.test(tx.Company))) {
    errors.push("company is not a plausible name");
  }
  if (tx.TransactionType !== null && !/^[a-z-]{1,40}$/.test(tx.TransactionType)) {
    errors.push("transaction type is malformed");
  }
  if (!tx.ForwardedTo) errors.push("no recipient");
  return errors;
}

/** The table row of a record (drizzle's JSON mode serializes the JSON maps). */
export function toRow(tx: TransactionRecord, createdAt: string): typeof transactions.$inferInsert {
  return { ...tx, CreatedAt: createdAt };
}

/** Same-minute DateFileName collision of two different transactions: `_2`, `_3`, … before `.eml`. */
export function suffixed(dateFileName: string, n: number): string {
  if (n <= 1) return dateFileName;
  const dot = dateFileName.lastIndexOf(".");
  return dot > 0 ? `${dateFileName.slice(0, dot)}_${n}${dateFileName.slice(dot)}` : `${dateFileName}_${n}`;
}

/** The store's own message: drizzle wraps it (with the query and its values) as the cause. */
export function storeErrorText(err: unknown): string {
  const cause = (err as { cause?: unknown } | null)?.cause;
  return String(cause ?? err);
}

const isPkCollision = (err: unknown) =>
  /UNIQUE constraint failed: transactions\.ForwardedTo, transactions\.DateFileName/i.test(
    storeErrorText(err),
  );

/**
 * Runs one batch that inserts the row under `dfn` (a plain db.batch by default). A verb's commit
 * passes its ledger's batch here, so the verb's entry rides in the insert's own round trip.
 */
export type WriteBatch = (stmts: Statements, dfn: string) => Promise<readonly unknown[]>;

export interface AddTransactionInput {
  tx: TransactionRecord;
  createdAt: string;
  write?: WriteBatch;
  withRow?: (dfn: string) => BatchItem<"sqlite">[];
  lead?: BatchItem<"sqlite">[];
}

/**
 * Writes a transaction unless its hash exists under the same ForwardedTo, in ONE batch: the
 * twin's key, `lead` (writes that hold whatever becomes of the row; before the insert, so
 * `changes()` stays the insert's), the insert and `withRow` (writes of a created row, each guarded
 * by the caller on `changes() > 0`). A same-minute key taken by another transaction is retried as
 * `_2`, `_3`, …. Any other failure is tried once more with the insert and `withRow` alone (SPEC: a
 * failing dedup check does not stop the write; the UNIQUE index still refuses a twin); when that
 * fails too it throws (the door retries). Mutates tx to the stored DateFileName.
 */
export async function addTransaction(
  db: Db,
  { tx, createdAt, write = (stmts) => db.batch(stmts), withRow = () => [], lead = [] }: AddTransactionInput,
): Promise<{
  /** Undefined (invalid), false (duplicate), else the stored DateFileName. */
  added: string | false | undefined;
  twin?: string;
  /** The results of `withRow`'s statements in the batch that inserted the row. */
  rows?: unknown[];
}> {
  if (validateRecord(tx).length > 0) return { added: undefined };
  const base = tx.DateFileName;
  let bare = false;
  /** One batch under `dfn`: [twin, insert, ...withRow] results, or null when another row holds the key. */
  const attempt = async (dfn: string): Promise<unknown[] | null> => {
    const first = bare ? [] : [twinKeyQuery(db, tx.ForwardedTo, tx.TransactionHash), ...lead];
    const insert = insertUnlessHashed(db, toRow({ ...tx, DateFileName: dfn }, createdAt));
    try {
      const results = await write([...first, insert, ...withRow(dfn)] as unknown as Statements, dfn);
      return bare ? [[], ...results] : [results[0], ...results.slice(1 + lead.length)];
    } catch (err) {
      if (isPkCollision(err)) return null;
      if (bare) throw err;
      // SPEC: a dedup check that errors does not stop the write; nor does a failing parse note.
      log("warn", "ingest.dedup_check_failed_open", { error: storeErrorText(err) });
      bare = true;
      return attempt(dfn);
    }
  };
  for (let n = 1; n <= 20; n++) {
    const dfn = suffixed(base, n);
    const results = await attempt(dfn);
    if (!results) continue;
    const [twin, res, ...rows] = results;
    const stored = (twin as { dfn: string }[])[0]?.dfn;
    if (stored !== undefined || ((res as D1Result).meta?.changes ?? 0) === 0) {
      return { added: false, ...(stored ? { twin: stored } : {}) };
    }
    tx.DateFileName = dfn;
    return { added: dfn, rows };
  }
  throw new Error(`no free DateFileName for ${base}`);
}
