import { useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { useAction } from "../components/useAction";
import { useApp } from "../lib/app";
import { stamp } from "../lib/format";
import { Link } from "../lib/router";
import { useApi } from "../lib/useApi";

type Ignored = components["schemas"]["IgnoredEmail"];

/** Emails the relevance check let go (90 days): one click sends a real alert to Needs review. */
export function IgnoredEmailsPage() {
  const list = useApi(() => unwrap(api.GET("/api/v1/ignored-emails")), "ignored");
  const emails = list.data?.emails ?? [];
  return (
    <section aria-labelledby="ignored-h">
      <div className="page-head">
        <h1 id="ignored-h">Ignored emails</h1>
        <Link to="/review">← Needs review</Link>
      </div>
      <div className="card" data-testid="ignored-emails">
        <h2>Not taken for bank alerts {list.data && <span className="count">{list.data.count}</span>}</h2>
        <p className="muted small">
          Emails that did not look like a bank or card alert, kept {list.data?.retention_days ?? 90} days. If
          one was an alert, say so: it goes to Needs review, and its sender's emails always will from now on.
        </p>
        <ErrorNotice error={list.error} onRetry={list.reload} />
        {!list.data && list.loading && <Loading rows={2} />}
        {list.data && emails.length === 0 && (
          <Empty title="No ignored emails">Every email that came in looked like an alert.</Empty>
        )}
        <ul className="failures">
          {emails.map((e) => (
            <IgnoredItem key={e.id} e={e} onChanged={list.reload} />
          ))}
        </ul>
      </div>
    </section>
  );
}

function IgnoredItem({ e, onChanged }: { e: Ignored; onChanged: () => void }) {
  const { canWrite, refreshHealth } = useApp();
  const { busy, error, run } = useAction();
  const [outcome, setOutcome] = useState<string | null>(null);
  const send = () =>
    run(async () => {
      const r = await unwrap(
        api.POST("/api/v1/ignored-emails/{ignored_id}/bank-alert", {
          params: { path: { ignored_id: e.id } },
        }),
      );
      setOutcome(
        r.outcome === "quarantined"
          ? `Sent to Needs review. Emails from ${r.alert_sender} now always go there.`
          : r.outcome === "created"
            ? "Read as a transaction: it is in the journal now."
            : `Done (${r.outcome}).`,
      );
      onChanged();
      refreshHealth();
    }, "Marked as a bank alert");
  const sent = e.status === "sent_to_review";
  return (
    <li className="failure" data-testid="ignored-item">
      <div className="row-between wrap">
        <div>
          <strong>{e.subject ?? "(no subject)"}</strong>
          <div className="muted small">
            {[
              e.from_name || e.from_email,
              e.from_name ? e.from_email : null,
              e.email_date ?? stamp(e.received_at),
            ]
              .filter(Boolean)
              .join(" · ")}
          </div>
          <div className="small">
            {sent ? <span className="tag tag-ok">sent to review</span> : <span className="tag">ignored</span>}{" "}
            {e.reason_text}
          </div>
        </div>
        {!sent && (
          <button type="button" className="btn btn-small" onClick={send} disabled={!canWrite || busy}>
            This was a bank alert
          </button>
        )}
      </div>
      {outcome && (
        <p className="notice" role="status">
          {outcome} <Link to="/review">Open Needs review</Link>
        </p>
      )}
      <ErrorNotice error={error} />
    </li>
  );
}
