import type { CategoryAudit, Transaction } from "../api/types";
import { useApp } from "../lib/app";
import { categoryLabel, stamp } from "../lib/format";

const SOURCES: Record<string, string> = {
  override: "Matched a merchant rule",
  override_normalized: "Matched a merchant rule after tidying the name",
  override_alias: "Matched a merchant rule through an alias",
  override_fuzzy: "Closely matched a merchant rule",
  manual: "Set by hand",
  manual_edit: "Changed by hand",
  manual_bulk: "Changed in a bulk edit",
  audit: "Chosen by the AI categorizer",
  statement_import: "Imported from a statement",
  statement_enrich: "Enriched from a statement",
  fallback: "No rule matched, so it was filed under Miscellaneous",
};

const REASONS: Record<string, string> = {
  no_ai_client: "AI categorization is not configured",
  ai_disabled: "AI categorization is turned off",
};

function sourceText(source: string | null | undefined): string {
  if (!source) return "Not recorded";
  return SOURCES[source] ?? source.replaceAll("_", " ");
}

/** How the transaction got its category, and how its fields were extracted. */
export function AuditTrail({ tx }: { tx: Transaction }) {
  const { categories } = useApp();
  const a: CategoryAudit = tx.category_audit ?? {};
  const e = tx.extraction_audit;
  const rows: [string, string][] = [];
  if (a.matched_rule) rows.push(["Rule", `“${a.matched_rule}”`]);
  if (a.confidence !== null && a.confidence !== undefined)
    rows.push(["Confidence", `${Math.round(a.confidence * 100)}%`]);
  if (a.tier) rows.push(["Tier", a.tier]);
  if (a.model) rows.push(["Model", a.model]);
  if (a.fallback_reason)
    rows.push(["Why", REASONS[a.fallback_reason] ?? a.fallback_reason.replaceAll("_", " ")]);
  if (a.previous_category)
    rows.push([
      "Before",
      `${categoryLabel(a.previous_category, categories)}${a.previous_source ? ` (${sourceText(a.previous_source).toLowerCase()})` : ""}`,
    ]);
  if (a.reviewed_at) rows.push(["Reviewed", stamp(a.reviewed_at)]);
  return (
    <section className="drawer-section" aria-labelledby="audit-h">
      <h3 id="audit-h">How it was categorized</h3>
      <p className="audit-source" data-testid="audit-source">
        {sourceText(a.source)}
      </p>
      {rows.length > 0 && (
        <dl className="facts">
          {rows.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}
      {e?.method && (
        <p className="muted small">
          Fields extracted by {e.method === "ai_fallback" ? "the AI fallback" : e.method}
          {e.model ? ` (${e.model})` : ""}
          {e.extracted_at ? `, ${stamp(e.extracted_at)}` : ""}
          {e.validated ? "; validated" : ""}.
        </p>
      )}
    </section>
  );
}
