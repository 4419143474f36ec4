-- The `vendor` account sign-in is removed: no provider in this Worker could use its token (it
-- belongs to the vendor's own command-line tool, which signs in on the person's computer). Tokens
-- a past sign-in stored are forgotten; the empty table stays so older backups and the exclusion
-- list keep their meaning.
DELETE FROM vendor_connections;

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (23, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
