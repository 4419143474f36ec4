/** The IMAP poller's heartbeat as the health page reads it (poller_state is the ingest door's table). */
import { eq } from "drizzle-orm";
import type { Db } from "../../db";
import { pollerState as p } from "../../db/schema";

export type PollerHealth = Pick<
  typeof p.$inferSelect,
  "last_poll_at" | "consecutive_failures" | "last_error"
>;

/** The heartbeat row (a query: awaited, or one statement of a caller's batch). */
export const heartbeatQuery = (db: Db) =>
  db
    .select({
      last_poll_at: p.last_poll_at,
      consecutive_failures: p.consecutive_failures,
      last_error: p.last_error,
    })
    .from(p)
    .where(eq(p.id, "imap"));
