-- kv_state holds only declared keys (src/db/kv.ts), each value JSON:
-- 1. The resolver's own version stamp is retired: the resolver follows the override and alias
--    lists' config_versions, bumped in every write's own batch.
-- 2. The quarantine-notice stamps were bare ISO text; they become JSON strings, as every other
--    value (the notice guard compares them with a cutoff encoded the same way).
DELETE FROM kv_state WHERE key = 'resolver_version';

UPDATE kv_state SET value = json_quote(value)
  WHERE key LIKE 'quarantine\_notice:%' ESCAPE '\' AND json_valid(value) = 0;

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (24, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
