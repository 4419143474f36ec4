-- Backup restore staging (issue 26 finding 9): a restore writes the backup's rows here in as many
-- batches as it takes, then moves them into the journal in ONE batch (atomic in D1), deleting them
-- in the same batch. A restore killed midway leaves only rows here (tagged by its token), which a
-- later preview removes; the journal is untouched.
CREATE TABLE IF NOT EXISTS restore_staging (
  token TEXT NOT NULL,
  seq INTEGER NOT NULL,
  tbl TEXT NOT NULL,
  op TEXT NOT NULL,
  cols TEXT NOT NULL,
  row TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (token, seq)
);
CREATE INDEX IF NOT EXISTS idx_restore_staging_op ON restore_staging (token, tbl, op, cols);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (17, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
