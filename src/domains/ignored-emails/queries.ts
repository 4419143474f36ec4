/** Queries of ignored_emails and sender_trust (what the relevance gate let go; vouched addresses). No rules here. */
import { and, desc, eq, gte, lt } from "drizzle-orm";
import type { Db } from "../../db";
import { ignoredEmails, senderTrust } from "../../db/schema";

type IgnoredInsert = typeof ignoredEmails.$inferInsert;
type TrustInsert = typeof senderTrust.$inferInsert;
/** The columns a redelivery refreshes. */
export type IgnoredFields = Omit<IgnoredInsert, "id" | "status" | "received_at" | "failure_id">;

/** Inserts the row, or refreshes `fields` of the existing one (keeping received_at and status). Unexecuted. */
export const upsertIgnored = (
  db: Db,
  row: Pick<IgnoredInsert, "id" | "status" | "received_at">,
  fields: IgnoredFields,
) =>
  db
    .insert(ignoredEmails)
    .values({ ...row, ...fields })
    .onConflictDoUpdate({ target: ignoredEmails.id, set: fields });

/** The address row of `kind`, if vouched for (its rows: none or one). */
export const trustedRowsQuery = (db: Db, address: string, kind: TrustInsert["kind"]) =>
  db
    .select({ address: senderTrust.address })
    .from(senderTrust)
    .where(and(eq(senderTrust.address, address), eq(senderTrust.kind, kind)))
    .limit(1);

/** Inserts a trust row unless the address and kind are known. */
export const insertTrust = (db: Db, row: TrustInsert) =>
  db.insert(senderTrust).values(row).onConflictDoNothing();

export const deleteIgnoredBefore = (db: Db, cutoffIso: string) =>
  db.delete(ignoredEmails).where(lt(ignoredEmails.received_at, cutoffIso));

export const listIgnoredRows = (db: Db, cutoffIso: string, limit: number) =>
  db
    .select()
    .from(ignoredEmails)
    .where(gte(ignoredEmails.received_at, cutoffIso))
    .orderBy(desc(ignoredEmails.received_at))
    .limit(limit)
    .all();

export const ignoredRowQuery = (db: Db, id: string) =>
  db.select().from(ignoredEmails).where(eq(ignoredEmails.id, id)).limit(1);

/** The row records where its re-run landed (unexecuted: for the verb's ledger batch). */
export const sentToReviewQuery = (db: Db, id: string, failureId: string | null, nowIso: string) =>
  db
    .update(ignoredEmails)
    .set({ status: "sent_to_review", failure_id: failureId, updated_at: nowIso })
    .where(eq(ignoredEmails.id, id));
