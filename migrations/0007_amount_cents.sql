-- 0007: money in integer cents. Idempotent: every statement can run twice without effect.
--
-- transactions.Amount held decimal dollars (REAL); from now on it holds integer cents. SQLite cannot
-- change a column's declared type in place, and a table rebuild cannot be made re-runnable, so the
-- values are converted where they stand: a journal created before this migration keeps the column's
-- REAL declaration (0001 declared it REAL then; it declares INTEGER now) and stores integral values,
-- which SQLite compares and sums exactly, like integers. Every statement is guarded by this
-- migration's own schema_version row, written last, so running the file again changes nothing.
UPDATE transactions
SET Amount = CAST(ROUND(Amount * 100) AS INTEGER)
WHERE Amount IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM schema_version WHERE version = 7);

-- Budget targets documents: spending_ceiling, and each category's target and monthly_amount, in
-- cents. `"money": "cents"` marks a converted document (the R2 backups written before this
-- migration are decimal and are read as such).
UPDATE budget_config
SET data = json_set(
  data,
  '$.spending_ceiling', CAST(ROUND(COALESCE(json_extract(data, '$.spending_ceiling'), 0) * 100) AS INTEGER),
  '$.categories', json(COALESCE((
    SELECT json_group_object(
      c.key,
      json_set(
        c.value,
        '$.target', CAST(ROUND(COALESCE(json_extract(c.value, '$.target'), 0) * 100) AS INTEGER),
        '$.monthly_amount', CAST(ROUND(COALESCE(json_extract(c.value, '$.monthly_amount'), 0) * 100) AS INTEGER)
      )
    )
    FROM json_each(budget_config.data, '$.categories') AS c
  ), '{}')),
  '$.money', 'cents'
)
WHERE kind = 'targets'
  AND json_extract(data, '$.money') IS NULL
  AND NOT EXISTS (SELECT 1 FROM schema_version WHERE version = 7);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (7, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
