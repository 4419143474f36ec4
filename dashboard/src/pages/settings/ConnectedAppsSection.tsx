import { api, unwrap } from "../../api/client";
import { Empty, ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { stamp } from "../../lib/format";
import { useApi } from "../../lib/useApi";

const WHAT = { read: "Reads your journal", "read+write": "Reads and changes your journal" } as const;

/** Assistants connected through OAuth (the /mcp connector flow): scope, dates, Disconnect. */
export function ConnectedAppsSection() {
  const { canWrite } = useApp();
  const list = useApi(() => unwrap(api.GET("/api/v1/connected-apps")), "connected-apps");
  const { busy, error, run } = useAction();
  const disconnect = (id: string) =>
    run(async () => {
      await unwrap(api.DELETE("/api/v1/connected-apps/{app_id}", { params: { path: { app_id: id } } }));
      list.reload();
    }, "App disconnected");
  const apps = list.data?.apps ?? [];
  return (
    <div className="card" id="connected-apps">
      <h2>Connected apps</h2>
      <p className="muted small">
        Assistants you allowed to use the journal through its <code>/mcp</code> address. Their changes appear
        under their name in Activity. Disconnecting one ends its access at once.
      </p>
      <ErrorNotice error={error ?? list.error} />
      {list.loading && !list.data && <Loading rows={2} />}
      {list.data && apps.length === 0 && <Empty title="No app is connected" />}
      {apps.length > 0 && (
        <ul className="plain-list" data-testid="app-list">
          {apps.map((a) => (
            <li key={a.id} className="row-between wrap" data-testid="app-row">
              <span>
                <strong>{a.name}</strong>{" "}
                <span className="tag">{a.scope === "read" ? "read" : "read + write"}</span>
                <span className="muted small block">
                  {WHAT[a.scope]} · connected {stamp(a.connected_at)} ·{" "}
                  {a.last_used_at ? `last used ${stamp(a.last_used_at)}` : "not used yet"}
                </span>
              </span>
              <button
                type="button"
                className="btn btn-small btn-danger-quiet"
                onClick={() => disconnect(a.id)}
                disabled={!canWrite || busy}
                aria-label={`Disconnect ${a.name}`}
              >
                Disconnect
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
