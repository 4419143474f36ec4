import { env } from "cloudflare:test";
import { getDb } from "../../src/db";
import { transactions } from "../../src/db/schema";
import { toCents } from "../../src/lib/money";
import { encodeTxId } from "../../src/lib/txid";

export interface SeedTx {
  ForwardedTo?: string;
  DateFileName: string;
  /** Decimal currency units, as the API speaks them (stored as cents). */
  Amount?: number;
  Company?: string | null;
  Category?: string | null;
  Institution?: string;
  TransactionType?: string;
  Ignored?: number;
  DeletedAt?: string | null;
  Comment?: string | null;
  CategoryAudit?: Record<string, unknown> | null;
  Body?: string;
  Subject?: string;
  CreatedAt?: string;
}

let n = 0;

/** Inserts a transaction row directly (stored names) and returns its tx_id. */
export async function seedTx(t: SeedTx): Promise<string> {
  const fwd = t.ForwardedTo ?? "me@example.com";
  n++;
  const day = t.DateFileName;
  await getDb(env.DB)
    .insert(transactions)
    .values({
      ForwardedTo: fwd,
      DateFileName: day,
      TransactionHash: `hash-${n}-${day}`,
      UserId: "default",
      Institution: t.Institution ?? "RBC",
      Amount: toCents(t.Amount ?? 10),
      Company: t.Company === undefined ? "Coffee Shop" : t.Company,
      TransactionType: t.TransactionType ?? "purchase",
      Category: t.Category === undefined ? "coffee & cafes" : t.Category,
      Name: "Alex",
      Date: `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)} 10:00 PST`,
      FileName: `emails/${day}`,
      Subject: t.Subject ?? "Alert",
      Body: t.Body ?? "A purchase was made.",
      CategoryAudit:
        t.CategoryAudit === undefined ? { source: "override", confidence: 1 } : (t.CategoryAudit ?? null),
      Ignored: t.Ignored ?? 0,
      Comment: t.Comment ?? null,
      DeletedAt: t.DeletedAt ?? null,
      CreatedAt: t.CreatedAt ?? new Date().toISOString(),
    });
  return encodeTxId(fwd, t.DateFileName);
}

export async function clearTransactions(): Promise<void> {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM transactions"),
    env.DB.prepare("DELETE FROM attention_queue"),
  ]);
}
