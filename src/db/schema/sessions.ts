/**
 * Browser sessions with a server-side identity: the signed `app_session` cookie carries
 * the row's id, and a cookie whose row is ended, expired or missing is refused. Also the
 * wrong-password throttle, one row per client address plus one global row.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const sessions = sqliteTable(
  "sessions",
  {
    /** `ses_` + 32 hex; also inside the signed cookie. Not a secret on its own (no signature). */
    id: text("id").primaryKey(),
    created_at: text("created_at").notNull(),
    /** Stamped at most every 15 minutes. */
    last_seen_at: text("last_seen_at"),
    /** The browser's User-Agent at login, truncated. */
    user_agent: text("user_agent"),
    /** The client address at login (CF-Connecting-IP), when known. */
    ip: text("ip"),
    /** Set by logout, sign-out-all, a password change or `DELETE /auth/sessions/{id}`. */
    ended_at: text("ended_at"),
    expires_at: text("expires_at").notNull(),
  },
  (t) => [index("idx_sessions_live").on(t.ended_at, t.expires_at)],
);

/**
 * Wrong-password throttle buckets: `ip:<address>` per client and `global`. `failures` counts
 * reserved attempts since the last correct password; `locked_until` closes the bucket.
 */
export const loginThrottle = sqliteTable("login_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  locked_until: text("locked_until"),
  updated_at: text("updated_at").notNull(),
});
