/**
 * Deduplication and the transaction write. SPEC.md: hash over
 * `forwarded_to|institution|amount|company|date|transaction_type`; query first (fail-open on a
 * check error), and the UNIQUE (ForwardedTo, TransactionHash) index makes it atomic, so two
 * concurrent deliveries write one row. add → undefined (invalid), false (duplicate), DateFileName.
 */
import { log } from "../lib/log";
import { sha256Hex } from "./hash";
import type { TransactionRecord } from "./types";

export interface HashFields {
  forwardedTo: string;
  institution: string;
  amount: number;
  company: string | null;
  date: string;
  transactionType: string | null;
}

/** The pipe-joined hash input; every part trimmed (CRLF mail leaves trailing CRs otherwise). */
export function hashInput(f: HashFields): string {
  return [
    f.forwardedTo.trim().toLowerCase(),
    f.institution.trim(),
    f.amount.toFixed(2),
    (f.company ?? "").trim(),
    f.date.trim(),
    (f.transactionType ?? "").trim(),
  ].join("|");
}

export function transactionHash(f: HashFields): Promise<string> {
  return sha256Hex(hashInput(f));
}

const MAX_AMOUNT = 100_000_000;

/** Why the write would reject these fields (empty when valid). Pure. */
export function validateRecord(
  tx: Pick<TransactionRecord, "Amount" | "Company" | "ForwardedTo" | "TransactionType">,
): string[] {
  const errors: string[] = [];
  if (typeof tx.Amount !== "number" || !Number.isFinite(tx.Amount)) errors.push("amount is not a number");
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

const COLUMNS = [
  "ForwardedTo",
  "DateFileName",
  "TransactionHash",
  "UserId",
  "Institution",
  "Amount",
  "Company",
  "TransactionType",
  "Category",
  "Name",
  "Date",
  "FileName",
  "FromName",
  "FromEmail",
  "ToName",
  "ToEmail",
  "Subject",
  "Body",
  "CategoryAudit",
  "ExtractionAudit",
  "TransactionContext",
  "CreatedAt",
] as const;

const INSERT_SQL = `INSERT INTO transactions (${COLUMNS.join(", ")})
  VALUES (${COLUMNS.map((_, i) => `?${i + 1}`).join(", ")})
  ON CONFLICT (ForwardedTo, TransactionHash) DO NOTHING`;

function values(tx: TransactionRecord, createdAt: string): unknown[] {
  return COLUMNS.map((c) => {
    if (c === "CreatedAt") return createdAt;
    const v = tx[c];
    if (v !== null && typeof v === "object") return JSON.stringify(v);
    return v ?? null;
  });
}

/** Same-minute DateFileName collision of two different transactions: `_2`, `_3`, … before `.eml`. */
export function suffixed(dateFileName: string, n: number): string {
  if (n <= 1) return dateFileName;
  const dot = dateFileName.lastIndexOf(".");
  return dot > 0 ? `${dateFileName.slice(0, dot)}_${n}${dateFileName.slice(dot)}` : `${dateFileName}_${n}`;
}

const isPkCollision = (err: unknown) =>
  /UNIQUE constraint failed: transactions\.ForwardedTo, transactions\.DateFileName/i.test(String(err));

async function existsByHash(db: D1Database, forwardedTo: string, hash: string): Promise<boolean | null> {
  try {
    const row = await db
      .prepare("SELECT 1 AS one FROM transactions WHERE ForwardedTo = ? AND TransactionHash = ? LIMIT 1")
      .bind(forwardedTo, hash)
      .first("one");
    return row !== null;
  } catch (err) {
    log("warn", "ingest.dedup_check_failed_open", { error: String(err) });
    return null;
  }
}

/**
 * Writes a transaction unless its hash exists under the same ForwardedTo. Returns undefined when
 * the fields are invalid, false for a duplicate, else the stored DateFileName (mutates tx to it).
 * Throws only on a storage failure other than a constraint.
 */
export async function addTransaction(
  db: D1Database,
  tx: TransactionRecord,
  createdAt: string,
): Promise<string | false | undefined> {
  if (validateRecord(tx).length > 0) return undefined;
  if ((await existsByHash(db, tx.ForwardedTo, tx.TransactionHash)) === true) return false;
  const base = tx.DateFileName;
  for (let n = 1; n <= 20; n++) {
    const candidate = { ...tx, DateFileName: suffixed(base, n) };
    try {
      const res = await db
        .prepare(INSERT_SQL)
        .bind(...values(candidate, createdAt))
        .run();
      if ((res.meta?.changes ?? 0) === 0) return false;
      tx.DateFileName = candidate.DateFileName;
      return candidate.DateFileName;
    } catch (err) {
      if (!isPkCollision(err)) throw err;
    }
  }
  throw new Error(`no free DateFileName for ${base}`);
}
