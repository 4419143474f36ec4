/**
 * Deduplication and the transaction write. SPEC.md: hash over
 * `forwarded_to|institution|amount|company|date|transaction_type`; query first (fail-open on a
 * check error), and the UNIQUE (ForwardedTo, TransactionHash) index makes it atomic, so two
 * concurrent deliveries write one row. add → undefined (invalid), false (duplicate), DateFileName.
 */
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db";
import type { transactions } from "../db/schema";
import { hashExistsQuery, insertUnlessHashed, twinKeyQuery } from "../domains/transactions/ingest-queries";
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

/**
 * The amount part of the hash, rendered from cents exactly as the hash has always rendered the
 * decimal amount (`toFixed(2)`: "1687.00", "0.05", no separators), so stored hashes still match.
 */
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

const existsQuery = (db: Db, forwardedTo: string, hash: string) => hashExistsQuery(db, forwardedTo, hash);

async function existsByHash(db: Db, forwardedTo: string, hash: string): Promise<boolean | null> {
  try {
    const rows = await existsQuery(db, forwardedTo, hash);
    return rows.length > 0;
  } catch (err) {
    log("warn", "ingest.dedup_check_failed_open", { error: String(err) });
    return null;
  }
}

/** The stored twin's DateFileName of a hash (null when none or unreadable). */
export async function storedDateFileName(db: Db, forwardedTo: string, hash: string) {
  try {
    const [row] = await twinKeyQuery(db, forwardedTo, hash);
    return row?.dfn ?? null;
  } catch {
    return null;
  }
}

/** What a write returns: undefined (invalid), false (duplicate), else the stored DateFileName. */
export type Added = string | false | undefined;

/**
 * Runs one batch that inserts the row under `dfn` (a plain db.batch by default). A verb's commit
 * passes its ledger's batch here, so the verb's entry rides in the insert's own round trip.
 */
export type WriteBatch = (stmts: Statements, dfn: string) => Promise<readonly unknown[]>;

const plainBatch =
  (db: Db): WriteBatch =>
  (stmts) =>
    db.batch(stmts);

/**
 * Writes a transaction unless its hash exists under the same ForwardedTo. Returns undefined when
 * the fields are invalid, false for a duplicate, else the stored DateFileName (mutates tx to it).
 * Throws only on a storage failure other than a constraint.
 *
 * The check, the insert and the caller's `after` reads (which then see the new row) go in ONE
 * round trip. When that batch fails for another reason than a same-minute collision (a read that
 * fails, an outage), the write is retried the long way: the check alone (failing open), then the
 * insert; `after` results are then null and the caller reads them itself. Every write goes
 * through `write` (one round trip each). `withRow`: the caller's writes of a created row (for the
 * key it is written under), last in every insert's batch, each guarded by the caller on
 * `changes() > 0` so they apply only when the row was inserted. `lead`: the caller's best-effort
 * writes that hold whatever becomes of the row (the sender's parse note), first in the one batch
 * (before the insert, so `changes()` stays the insert's); the long way leaves them out
 * (`leadWritten` false: the caller writes them on their own, so their failure never fails the row).
 */
export interface AddTransactionInput {
  tx: TransactionRecord;
  createdAt: string;
  after?: BatchItem<"sqlite">[];
  write?: WriteBatch;
  withRow?: (dfn: string) => BatchItem<"sqlite">[];
  lead?: BatchItem<"sqlite">[];
}

export async function addTransaction(
  db: Db,
  { tx, createdAt, after, write = plainBatch(db), withRow = () => [], lead = [] }: AddTransactionInput,
): Promise<{
  added: Added;
  after: unknown[] | null;
  leadWritten: boolean;
  twin?: string;
  /** The results of `withRow`'s statements in the batch that inserted the row. */
  rows?: unknown[];
}> {
  if (validateRecord(tx).length > 0) return { added: undefined, after: null, leadWritten: false };
  const insert = (dfn: string) => insertUnlessHashed(db, toRow({ ...tx, DateFileName: dfn }, createdAt));
  try {
    const [first, ...rest] = [
      ...lead,
      twinKeyQuery(db, tx.ForwardedTo, tx.TransactionHash),
      insert(tx.DateFileName),
      ...(after ?? []),
      ...withRow(tx.DateFileName),
    ];
    const all = await write([first!, ...rest], tx.DateFileName);
    const [twin, res, ...reads] = all.slice(lead.length);
    const twinKey = (twin as { dfn: string }[])[0]?.dfn;
    if (twinKey !== undefined || ((res as D1Result).meta?.changes ?? 0) === 0) {
      // The stored twin's key came with the check (no read after).
      return { added: false, after: null, leadWritten: true, ...(twinKey ? { twin: twinKey } : {}) };
    }
    const n = after?.length ?? 0;
    return { added: tx.DateFileName, after: reads.slice(0, n), leadWritten: true, rows: reads.slice(n) };
  } catch (err) {
    if (!isPkCollision(err)) log("warn", "ingest.write_batch_failed", { error: String(err) });
  }
  const longWay = { after: null, leadWritten: false };
  if ((await existsByHash(db, tx.ForwardedTo, tx.TransactionHash)) === true)
    return { added: false, ...longWay };
  const base = tx.DateFileName;
  for (let n = 1; n <= 20; n++) {
    const candidate = suffixed(base, n);
    try {
      const [res, ...rows] = (await write([insert(candidate), ...withRow(candidate)], candidate)) as [
        D1Result,
        ...unknown[],
      ];
      if ((res.meta?.changes ?? 0) === 0) return { added: false, ...longWay };
      tx.DateFileName = candidate;
      return { added: candidate, ...longWay, rows };
    } catch (err) {
      if (!isPkCollision(err)) throw err;
    }
  }
  throw new Error(`no free DateFileName for ${base}`);
}
