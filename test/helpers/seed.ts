import { env } from "cloudflare:test";
import { encodeTxId } from "../../src/lib/txid";

export interface SeedTx {
  ForwardedTo?: string;
  DateFileName: string;
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
  await env.DB.prepare(
    `INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, UserId, Institution, Amount, Company,
       TransactionType, Category, Name, Date, FileName, Subject, Body, CategoryAudit, Ignored, Comment, DeletedAt, CreatedAt)
     VALUES (?1, ?2, ?3, 'default', ?4, ?5, ?6, ?7, ?8, 'Alex', ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)`,
  )
    .bind(
      fwd,
      t.DateFileName,
      `hash-${n}-${t.DateFileName}`,
      t.Institution ?? "RBC",
      t.Amount ?? 10,
      t.Company === undefined ? "Coffee Shop" : t.Company,
      t.TransactionType ?? "purchase",
      t.Category === undefined ? "coffee & cafes" : t.Category,
      `${t.DateFileName.slice(5, 7)}/${t.DateFileName.slice(8, 10)}/${t.DateFileName.slice(0, 4)} 10:00 PST`,
      `emails/${t.DateFileName}`,
      t.Subject ?? "Alert",
      t.Body ?? "A purchase was made.",
      t.CategoryAudit === undefined
        ? JSON.stringify({ source: "override", confidence: 1 })
        : t.CategoryAudit && JSON.stringify(t.CategoryAudit),
      t.Ignored ?? 0,
      t.Comment ?? null,
      t.DeletedAt ?? null,
      t.CreatedAt ?? new Date().toISOString(),
    )
    .run();
  return encodeTxId(fwd, t.DateFileName);
}

export async function clearTransactions(): Promise<void> {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM transactions"),
    env.DB.prepare("DELETE FROM attention_queue"),
  ]);
}
