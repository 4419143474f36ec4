import { api, unwrap } from "../../api/client";
import { Empty, ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { stamp } from "../../lib/format";
import { useApi } from "../../lib/useApi";

/** A short device description from a User-Agent (the full string is in the title). */
function device(ua: string | null): string {
  if (!ua) return "Unknown browser";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrome\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : null;
  const os = /iPhone|iPad/.test(ua)
    ? "iOS"
    : /Android/.test(ua)
      ? "Android"
      : /Mac OS X/.test(ua)
        ? "macOS"
        : /Windows/.test(ua)
          ? "Windows"
          : /Linux/.test(ua)
            ? "Linux"
            : null;
  return [browser, os].filter(Boolean).join(" on ") || ua.slice(0, 40);
}

/** Browser sessions signed in with the password: when and where, and "sign out" per row. */
export function SessionsSection() {
  const { canWrite } = useApp();
  const list = useApi(() => unwrap(api.GET("/api/v1/auth/sessions")), "sessions");
  const { busy, error, run } = useAction();
  const signOut = (id: string) =>
    run(async () => {
      await unwrap(
        api.DELETE("/api/v1/auth/sessions/{session_id}", { params: { path: { session_id: id } } }),
      );
      list.reload();
    }, "Session signed out");
  const sessions = list.data?.sessions ?? [];
  return (
    <div className="card" id="sessions">
      <h2>Signed-in browsers</h2>
      <p className="muted small">
        Every browser signed in with the password. Signing one out ends it at once; changing the password
        signs out all the others.
      </p>
      <ErrorNotice error={error ?? list.error} />
      {list.loading && !list.data && <Loading rows={2} />}
      {list.data && sessions.length === 0 && <Empty title="No browser is signed in" />}
      {sessions.length > 0 && (
        <ul className="plain-list" data-testid="session-list">
          {sessions.map((s) => (
            <li key={s.id} className="row-between wrap" data-testid="session-row">
              <span title={s.user_agent ?? undefined}>
                <strong>{device(s.user_agent)}</strong>{" "}
                {s.current && <span className="tag">this browser</span>}
                <span className="muted small block">
                  Signed in {stamp(s.created_at)}
                  {s.ip ? ` from ${s.ip}` : ""} ·{" "}
                  {s.last_seen_at ? `last seen ${stamp(s.last_seen_at)}` : "not seen since"}
                </span>
              </span>
              <button
                type="button"
                className="btn btn-small btn-danger-quiet"
                onClick={() => signOut(s.id)}
                disabled={!canWrite || busy}
                // The accessible name starts with the visible words (WCAG 2.5.3, label in name).
                aria-label={s.current ? "Sign out this browser" : `Sign out ${device(s.user_agent)}`}
              >
                Sign out
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
