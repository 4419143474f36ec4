import { api, unwrap } from "../../api/client";
import { ErrorNotice, Loading } from "../../components/States";
import { stamp } from "../../lib/format";
import { useApi } from "../../lib/useApi";
import { Markdown } from "./Markdown";

/** One saved briefing, its untraceable figures highlighted in the text. */
export function Briefing({ id, month }: { id: string; month: string }) {
  const b = useApi(
    () =>
      unwrap(
        api.GET("/api/v1/insights/saved/{insight_id}", {
          params: { path: { insight_id: id }, query: { month } },
        }),
      ),
    `${id}|${month}`,
  );
  if (b.error) return <ErrorNotice error={b.error} onRetry={b.reload} />;
  if (!b.data) return <Loading rows={4} />;
  const v = b.data.validation;
  const flagged = [...new Set((v?.unmatched ?? []).map((f) => f.raw))];
  return (
    <article
      className="card briefing"
      data-testid="insights-briefing"
      aria-label={`Briefing of ${stamp(b.data.generated_at)}`}
    >
      {v && (
        <p className={v.ok ? "muted small" : "notice notice-warn"} data-testid="insights-figure-check">
          {v.ok
            ? `All ${v.summary.total} figures trace to the month's data.`
            : `${v.summary.unmatched} of ${v.summary.total} figures could not be traced to the month's data; they are highlighted.`}
        </p>
      )}
      <Markdown source={b.data.content} flagged={flagged} />
      <p className="muted small">Written {stamp(b.data.generated_at)}</p>
    </article>
  );
}
