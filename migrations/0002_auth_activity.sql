-- 0002: authentication (API tokens, dashboard password and sessions) and the activity ledger.
-- Idempotent: every statement can run twice without effect.

-- Bearer tokens. Only the SHA-256 (hex) of the raw `fin_...` value is stored; revocation is permanent.
CREATE TABLE IF NOT EXISTS api_tokens (
  id TEXT PRIMARY KEY,
  label TEXT NOT NULL,
  scope TEXT NOT NULL DEFAULT 'read+write' CHECK (scope IN ('read', 'read+write')),
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);

-- The single owner's dashboard password (PBKDF2-SHA256), session signing state and the
-- wrong-password counter. One row, created by the first set-password or sign-out-all.
CREATE TABLE IF NOT EXISTS auth_settings (
  id TEXT PRIMARY KEY CHECK (id = 'owner'),
  password_hash TEXT,
  password_salt TEXT,
  password_iterations INTEGER,
  password_updated_at TEXT,
  session_epoch INTEGER NOT NULL DEFAULT 1,
  session_secret TEXT,
  failed_logins INTEGER NOT NULL DEFAULT 0,
  locked_until TEXT,
  updated_at TEXT NOT NULL
);

-- Activity ledger: one row per successful mutating API call (append-only apart from the revert stamp).
CREATE TABLE IF NOT EXISTS activity_log (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  ts TEXT NOT NULL,
  principal_kind TEXT,
  principal_id TEXT,
  principal_label TEXT,
  operation_id TEXT,
  method TEXT,
  path TEXT,
  resource_kind TEXT,
  resource_id TEXT,
  summary TEXT,
  before_json TEXT,
  after_json TEXT,
  reversible INTEGER NOT NULL DEFAULT 0,
  reverted_at TEXT,
  reverted_by TEXT
);
CREATE INDEX IF NOT EXISTS idx_activity_ts ON activity_log (ts);
CREATE INDEX IF NOT EXISTS idx_activity_principal ON activity_log (principal_id, ts);
CREATE INDEX IF NOT EXISTS idx_activity_kind ON activity_log (principal_kind, ts);
CREATE INDEX IF NOT EXISTS idx_activity_operation ON activity_log (operation_id, ts);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (2, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
