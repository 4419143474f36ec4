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

/**
 * `count` receipts, the nth linked to the transaction `me@x` / '2025.03.01_10.00_<mark><n, 5 digits>.eml'
 * (rows the caller made), each with a small stored object: a year with many evidence files.
 */
export async function seedReceipts(db: D1Database, count: number, mark = ""): Promise<void> {
  await db
    .prepare(
      `WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < ?)
       INSERT INTO attachments (id, original_filename, content_type, size_bytes, sha256, kind, r2_key,
         tx_forwarded_to, tx_date_file_name, created_at, updated_at)
       SELECT 'att_' || printf('%016x', n), 'r.jpg', 'image/jpeg', 20, printf('%064x', n), 'receipt',
         'attachments/2025-03/' || printf('%064x', n) || '.jpg', 'me@x',
         '2025.03.01_10.00_' || ? || substr('0000' || n, -5) || '.eml', 'x', 'x' FROM i`,
    )
    .bind(count, mark)
    .run();
  for (let n = 0; n < count; n += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, count - n) }, (_, k) =>
        env.FILES.put(
          `attachments/2025-03/${(n + k).toString(16).padStart(64, "0")}.jpg`,
          `receipt ${n + k}`,
        ),
      ),
    );
}
