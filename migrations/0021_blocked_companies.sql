-- The blocked-company list as a table of its own (it was a JSON array in kv_state, outside the
-- data export and without an API): one row per company, keyed by its lower-cased name.
CREATE TABLE IF NOT EXISTS blocked_companies (
  key TEXT PRIMARY KEY,
  company TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- Carry over a list kept the old way, then retire the old key (both no-ops when run again).
INSERT OR IGNORE INTO blocked_companies (key, company, created_at)
  SELECT lower(trim(j.value)), trim(j.value), strftime('%Y-%m-%dT%H:%M:%fZ','now')
  FROM kv_state AS k, json_each(CASE WHEN json_valid(k.value) THEN k.value ELSE '[]' END) AS j
  WHERE k.key = 'blocked_companies' AND j.type = 'text' AND trim(j.value) <> '';
DELETE FROM kv_state WHERE key = 'blocked_companies';

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (21, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
