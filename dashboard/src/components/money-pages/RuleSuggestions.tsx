// Suggested rules: merchants you keep re-filing by hand, duplicate rules that could be one, and
// merchants you usually ignore. Accept makes the rule; dismiss hides the suggestion.
import type { ReactNode } from "react";
import { api, unwrap } from "../../api/client";
import { useApp } from "../../lib/app";
import { categoryLabel } from "../../lib/format";
import { useApi } from "../../lib/useApi";
import { Empty, ErrorNotice, Loading } from "../States";
import { useAction } from "../useAction";

export function RuleSuggestions({ onChanged }: { onChanged: () => void }) {
  const { categories, canWrite } = useApp();
  const data = useApi(
    () =>
      Promise.all([
        unwrap(api.GET("/api/v1/overrides/suggestions", { params: { query: {} } })),
        unwrap(api.GET("/api/v1/overrides/duplicates")),
        unwrap(api.GET("/api/v1/ignore-rules/suggestions", { params: { query: {} } })),
      ]),
    "suggestions",
  );
  const { busy, error, run } = useAction();
  const off = !canWrite || busy;
  const act = (fn: () => Promise<unknown>, done: string) =>
    void run(async () => {
      await fn();
      data.reload();
      onChanged();
    }, done);
  const [overrides, duplicates, ignores] = data.data ?? [];
  const none = data.data && !overrides?.count && !duplicates?.count && !ignores?.count;
  return (
    <div className="card" data-testid="rule-suggestions">
      <h2>Suggested rules</h2>
      <ErrorNotice error={error ?? data.error} onRetry={data.error ? data.reload : undefined} />
      {!data.data && data.loading && <Loading rows={2} />}
      {none && (
        <Empty title="No suggestions right now">
          Re-file a merchant by hand a few times and a rule is offered here.
        </Empty>
      )}
      <ul className="plain-list rule-list">
        {overrides?.suggestions.map((s) => (
          <SuggestionRow
            key={`o-${s.company}`}
            off={off}
            act={act}
            accept={{
              label: "Make it a rule",
              done: "Rule saved",
              run: () =>
                unwrap(
                  api.PUT("/api/v1/overrides/{company}", {
                    params: { path: { company: s.company } },
                    body: { category: s.suggested_category },
                  }),
                ),
            }}
            dismiss={() =>
              unwrap(
                api.POST("/api/v1/overrides/suggestions/dismissed", {
                  body: { company: s.company, category: s.suggested_category },
                }),
              )
            }
          >
            <strong>{s.company}</strong> → {categoryLabel(s.suggested_category, categories)}{" "}
            <span className="muted small">re-filed by hand {s.correction_count}×</span>
          </SuggestionRow>
        ))}
        {duplicates?.groups
          .filter((g) => g.unanimous_category)
          .map((g) => (
            <SuggestionRow
              key={`d-${g.normalized_key}`}
              off={off}
              act={act}
              accept={{
                label: "Merge into one",
                done: "Rules merged",
                run: () =>
                  unwrap(
                    api.POST("/api/v1/overrides/consolidate", {
                      body: {
                        normalized_key: g.normalized_key,
                        canonical_company: g.members[0]?.company ?? g.normalized_key,
                        category: g.unanimous_category ?? "",
                        members: g.members.map((m) => m.company),
                      },
                    }),
                  ),
              }}
            >
              {g.members.length} rules for the same merchant: {g.members.map((m) => m.company).join(", ")}
            </SuggestionRow>
          ))}
        {ignores?.suggestions.map((s) => (
          <SuggestionRow
            key={`i-${s.merchant}`}
            off={off}
            act={act}
            accept={{
              label: "Always ignore",
              done: "Rule saved and applied to past transactions",
              run: async () => {
                await unwrap(api.POST("/api/v1/ignore-rules", { body: { pattern: s.merchant } }));
                await unwrap(api.POST("/api/v1/ignore-rules/apply", { body: { pattern: s.merchant } }));
              },
            }}
            dismiss={() =>
              unwrap(
                api.POST("/api/v1/ignore-rules/suggestions/dismissed", {
                  body: { merchant: s.merchant },
                }),
              )
            }
          >
            Ignore <strong>{s.merchant}</strong>?{" "}
            <span className="muted small">
              you ignored {s.ignored_count} of {s.total_count}
            </span>
          </SuggestionRow>
        ))}
      </ul>
    </div>
  );
}

/** One suggestion: what it proposes, an accept button and (where the API keeps a refusal) Dismiss. */
function SuggestionRow({
  children,
  accept,
  dismiss,
  off,
  act,
}: {
  children: ReactNode;
  accept: { label: string; done: string; run: () => Promise<unknown> };
  dismiss?: () => Promise<unknown>;
  off: boolean;
  act: (fn: () => Promise<unknown>, done: string) => void;
}) {
  return (
    <li className="row-between wrap">
      <span className="rule-text">{children}</span>
      <span className="actions">
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={off}
          onClick={() => act(accept.run, accept.done)}
        >
          {accept.label}
        </button>
        {dismiss && (
          <button
            type="button"
            className="btn btn-small"
            disabled={off}
            onClick={() => act(dismiss, "Dismissed")}
          >
            Dismiss
          </button>
        )}
      </span>
    </li>
  );
}
