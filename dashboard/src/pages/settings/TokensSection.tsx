import { type FormEvent, useState } from "react";
import { api, unwrap } from "../../api/client";
import type { IssuedToken } from "../../api/types";
import { Empty, ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { stamp } from "../../lib/format";
import { useApi } from "../../lib/useApi";

/** Bearer tokens for scripts and agents: issue (raw value shown once), list, revoke. */
export function TokensSection() {
  const { canWrite } = useApp();
  const list = useApi(() => unwrap(api.GET("/api/v1/auth/tokens")), "tokens");
  const [label, setLabel] = useState("");
  const [scope, setScope] = useState<"read" | "read+write">("read");
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const [copied, setCopied] = useState(false);
  const { busy, error, run } = useAction();
  const issue = (e: FormEvent) => {
    e.preventDefault();
    run(async () => {
      const t = await unwrap(api.POST("/api/v1/auth/tokens", { body: { label: label.trim(), scope } }));
      setIssued(t);
      setCopied(false);
      setLabel("");
      list.reload();
    }, "Token issued");
  };
  const revoke = (id: string) =>
    run(async () => {
      await unwrap(api.DELETE("/api/v1/auth/tokens/{token_id}", { params: { path: { token_id: id } } }));
      if (issued?.id === id) setIssued(null);
      list.reload();
    }, "Token revoked");
  const copy = async () => {
    if (!issued) return;
    try {
      await navigator.clipboard.writeText(issued.token);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const tokens = list.data?.tokens ?? [];
  return (
    <div className="card" id="tokens">
      <h2>API tokens</h2>
      <p className="muted small">
        For scripts and agents: send <code>Authorization: Bearer fin_…</code>. Read tokens can only look.
      </p>
      <form className="inline wrap" onSubmit={issue} aria-label="Issue a token">
        <label className="field grow">
          <span>Label</span>
          <input
            required
            maxLength={100}
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            placeholder="e.g. budget script"
          />
        </label>
        <label className="field">
          <span>Access</span>
          <select value={scope} onChange={(e) => setScope(e.target.value as "read" | "read+write")}>
            <option value="read">Read only</option>
            <option value="read+write">Read and write</option>
          </select>
        </label>
        <button
          type="submit"
          className="btn btn-primary align-end"
          disabled={!canWrite || busy || !label.trim()}
        >
          Issue token
        </button>
      </form>
      {issued && (
        <div className="notice notice-ok" role="status" data-testid="issued-token">
          <p>
            <strong>Copy this token now</strong> — it is shown only once.
          </p>
          <div className="inline wrap">
            <code className="secret" data-testid="raw-token">
              {issued.token}
            </code>
            <button type="button" className="btn btn-small" onClick={copy}>
              {copied ? "Copied" : "Copy"}
            </button>
            <button type="button" className="btn btn-small" onClick={() => setIssued(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      <ErrorNotice error={error ?? list.error} />
      {list.loading && !list.data && <Loading rows={2} />}
      {list.data && tokens.length === 0 && <Empty title="No tokens yet" />}
      {tokens.length > 0 && (
        <ul className="plain-list" data-testid="token-list">
          {tokens.map((t) => (
            <li key={t.id} className="row-between wrap" data-testid="token-row" data-label={t.label}>
              <span>
                <strong>{t.label}</strong>{" "}
                <span className="tag">{t.scope === "read" ? "read only" : "read + write"}</span>
                <span className="muted small block">
                  Created {stamp(t.created_at)} ·{" "}
                  {t.last_used_at ? `last used ${stamp(t.last_used_at)}` : "never used"}
                </span>
              </span>
              <button
                type="button"
                className="btn btn-small btn-danger-quiet"
                onClick={() => revoke(t.id)}
                disabled={!canWrite || busy}
                aria-label={`Revoke ${t.label}`}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
