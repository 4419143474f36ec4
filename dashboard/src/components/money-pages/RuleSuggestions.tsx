// Suggested rules: merchants you keep re-filing by hand, duplicate rules that could be one, and
// merchants you usually ignore. Accept makes the rule; dismiss hides the suggestion.
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
          <li key={`o-${s.company}`} className="row-between wrap">
            <span className="rule-text">
              <strong>{s.company}</strong> → {categoryLabel(s.suggested_category, categories)}{" "}
              <span className="muted small">re-filed by hand {s.correction_count}×</span>
            </span>
            <span className="actions">
              <button
                type="button"
                className="btn btn-small btn-primary"
                disabled={off}
                onClick={() =>
                  act(
                    () =>
                      unwrap(
                        api.PUT("/api/v1/overrides/{company}", {
                          params: { path: { company: s.company } },
                          body: { category: s.suggested_category },
                        }),
                      ),
                    "Rule saved",
                  )
                }
              >
                Make it a rule
              </button>
              <button
                type="button"
                className="btn btn-small"
                disabled={off}
                onClick={() =>
                  act(
                    () =>
                      unwrap(
                        api.POST("/api/v1/overrides/suggestions/dismissed", {
                          body: { company: s.company, category: s.suggested_category },
                        }),
                      ),
                    "Dismissed",
                  )
                }
              >
                Dismiss
              </button>
            </span>
          </li>
        ))}
        {duplicates?.groups
          .filter((g) => g.unanimous_category)
          .map((g) => (
            <li key={`d-${g.normalized_key}`} className="row-between wrap">
              <span className="rule-text">
                {g.members.length} rules for the same merchant: {g.members.map((m) => m.company).join(", ")}
              </span>
              <button
                type="button"
                className="btn btn-small btn-primary"
                disabled={off}
                onClick={() =>
                  act(
                    () =>
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
                    "Rules merged",
                  )
                }
              >
                Merge into one
              </button>
            </li>
          ))}
        {ignores?.suggestions.map((s) => (
          <li key={`i-${s.merchant}`} className="row-between wrap">
            <span className="rule-text">
              Ignore <strong>{s.merchant}</strong>?{" "}
              <span className="muted small">
                you ignored {s.ignored_count} of {s.total_count}
              </span>
            </span>
            <span className="actions">
              <button
                type="button"
                className="btn btn-small btn-primary"
                disabled={off}
                onClick={() =>
                  act(async () => {
                    await unwrap(api.POST("/api/v1/ignore-rules", { body: { pattern: s.merchant } }));
                    await unwrap(api.POST("/api/v1/ignore-rules/apply", { body: { pattern: s.merchant } }));
                  }, "Rule saved and applied to past transactions")
                }
              >
                Always ignore
              </button>
              <button
                type="button"
                className="btn btn-small"
                disabled={off}
                onClick={() =>
                  act(
                    () =>
                      unwrap(
                        api.POST("/api/v1/ignore-rules/suggestions/dismissed", {
                          body: { merchant: s.merchant },
                        }),
                      ),
                    "Dismissed",
                  )
                }
              >
                Dismiss
              </button>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
