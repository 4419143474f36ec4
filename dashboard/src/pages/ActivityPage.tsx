import { api, unwrap } from "../api/client";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { useApi } from "../lib/useApi";
import { ActivityItem } from "./ActivityItem";

export function ActivityPage() {
  const feed = useApi(
    () => unwrap(api.GET("/api/v1/activity", { params: { query: { limit: 200 } } })),
    "activity",
  );
  const entries = feed.data?.entries ?? [];
  const byId = new Map(entries.map((e) => [e.id, e]));
  return (
    <section aria-labelledby="activity-h">
      <div className="page-head">
        <h1 id="activity-h">Activity</h1>
        <button type="button" className="btn" onClick={feed.reload} disabled={feed.loading}>
          Refresh
        </button>
      </div>
      <p className="muted">
        Every change made through the API, newest first. Changes with a before-and-after image can be undone.
      </p>
      <ErrorNotice error={feed.error} onRetry={feed.reload} />
      {!feed.data && feed.loading && <Loading rows={5} />}
      {feed.data && entries.length === 0 && (
        <Empty title="No activity yet">Changes you make will be listed here.</Empty>
      )}
      {entries.length > 0 && (
        <ol className="card activity" data-testid="activity-list">
          {entries.map((e) => (
            <ActivityItem key={e.id} entry={e} onChanged={feed.reload} byId={byId} />
          ))}
        </ol>
      )}
    </section>
  );
}
