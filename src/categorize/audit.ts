/**
 * The CategoryAudit map stored with every transaction (SPEC.md): how its category was chosen.
 * Built here and only here, so every writer (email, hand entry, resolve, statement import,
 * corrections) stores the same complete shape.
 */
export interface CategoryAudit {
  source: string | null;
  matched_rule: string | null;
  confidence: number | null;
  tier: number | null;
  model: string | null;
  fallback_reason: string | null;
  reviewed_at: string | null;
  previous_category: string | null;
  previous_source: string | null;
  schema_version: 1;
}

/** A complete audit map: the given fields, null for the rest. */
export function categoryAudit(fields: Partial<Omit<CategoryAudit, "schema_version">>): CategoryAudit {
  return {
    source: null,
    matched_rule: null,
    confidence: null,
    tier: null,
    model: null,
    fallback_reason: null,
    reviewed_at: null,
    previous_category: null,
    previous_source: null,
    ...fields,
    schema_version: 1,
  };
}
