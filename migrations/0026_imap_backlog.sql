-- The IMAP poller reads a mailbox in bounded steps (issue 36); poller_state gains two columns:
-- backlog: messages above the cursor left to read after the last step (NULL until the first poll);
-- lease_until: while a step runs, no other invocation may claim the mailbox before this time.
-- SQLite has no ADD COLUMN IF NOT EXISTS, so the one-row table is rebuilt with them, which runs
-- again without effect: the cursor, heartbeat and backoff are copied; backlog and lease are
-- transient (the next poll writes them).
CREATE TABLE IF NOT EXISTS poller_state_0026 (
  id TEXT PRIMARY KEY,
  last_uid INTEGER NOT NULL DEFAULT 0,
  uid_validity INTEGER,
  last_poll_at TEXT,
  last_attempt_at TEXT,
  next_attempt_at TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  backlog INTEGER,
  lease_until TEXT
);

INSERT OR IGNORE INTO poller_state_0026
  (id, last_uid, uid_validity, last_poll_at, last_attempt_at, next_attempt_at, consecutive_failures, last_error)
SELECT id, last_uid, uid_validity, last_poll_at, last_attempt_at, next_attempt_at, consecutive_failures, last_error
FROM poller_state;

DROP TABLE poller_state;

ALTER TABLE poller_state_0026 RENAME TO poller_state;

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (26, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
