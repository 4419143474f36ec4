-- The IMAP poller reads a mailbox in bounded steps (issue 36):
-- backlog: messages above the cursor left to read after the last step (NULL until the first poll);
-- lease_until: while a step runs, no other invocation may claim the mailbox before this time.
ALTER TABLE poller_state ADD COLUMN backlog INTEGER;
ALTER TABLE poller_state ADD COLUMN lease_until TEXT;

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (26, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
