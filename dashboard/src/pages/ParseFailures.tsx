import { useState } from "react";
import { api, unwrap } from "../api/client";
import type { ParseFailure } from "../api/types";
import { AiNeeds, useAiReadiness } from "../components/AiGate";
import { stageWords } from "../lib/failure-words";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { useAction } from "../components/useAction";
import { useApp } from "../lib/app";
import { stamp, txWhen } from "../lib/format";
import { useApi } from "../lib/useApi";
import { ResolvePanel } from "./ResolvePanel";
import { usePolledStatus } from "./insights/usePolledStatus";

type Status = "quarantined" | "recovered" | "resolved" | "dismissed";
const STATUSES: Status[] = ["quarantined", "recovered", "resolved", "dismissed"];

/** The quarantine: emails that looked like bank alerts but could not be parsed. */
export function ParseFailures() {
  const { canWrite, refreshHealth } = useApp();
  const [status, setStatus] = useState<Status | "">("quarantined");
  const list = useApi(
    () => unwrap(api.GET("/api/v1/parse-failures", { params: { query: status ? { status } : {} } })),
    status,
  );
  const bulk = useAction();
  const rescue = useAiReadiness("alert_rescue");
  const [result, setResult] = useState<string | null>(null);
  const counts = (r: { retried: number; created: number; duplicates: number; still_failing: number }) =>
    `${r.created} recovered, ${r.duplicates} already stored, ${r.still_failing} still failing`;
  // A backlog past one step (100 emails) goes on in the background: its counts are polled here.
  const run = usePolledStatus(
    async () => unwrap(api.GET("/api/v1/parse-failures/retry-all")),
    (r) => {
      setResult(
        r.status === "error"
          ? `Retrying stopped after ${r.retried}: ${r.error ?? "an error"}`
          : `Retried ${r.retried}: ${counts(r)}.`,
      );
      list.reload();
      refreshHealth();
    },
    1500,
  );
  const retryAll = () =>
    bulk.run(async () => {
      const r = await unwrap(api.POST("/api/v1/parse-failures/retry-all", { body: {} }));
      if (r.status === "running") {
        setResult(null);
        run.started();
        return;
      }
      setResult(`Retried ${r.retried}: ${counts(r)}.`);
      list.reload();
      refreshHealth();
    });
  const running = run.status?.status === "running" ? run.status : null;
  const failures = list.data?.failures ?? [];
  return (
    <div className="card" data-testid="parse-failures">
      <div className="row-between wrap">
        <h2>Quarantined emails {list.data && <span className="count">{list.data.count}</span>}</h2>
        <div className="inline">
          <label className="sr-only" htmlFor="pf-status">
            Show
          </label>
          <select id="pf-status" value={status} onChange={(e) => setStatus(e.target.value as Status | "")}>
            <option value="">All but dismissed</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s[0]?.toUpperCase() + s.slice(1)}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn"
            onClick={retryAll}
            disabled={!canWrite || bulk.busy || !!running || !failures.length}
          >
            {running ? "Retrying…" : "Retry all"}
          </button>
        </div>
      </div>
      <p className="muted small">
        Retry runs the parsers again (and AI rescue, when it is set up); resolve lets you type the transaction
        in beside the original email.
      </p>
      <AiNeeds action="alert_rescue" r={rescue} />
      {running && (
        <div className="demo-progress" role="status" data-testid="retry-all-progress">
          <progress aria-label="Retrying the quarantined emails" />
          <p className="small">
            Retrying the quarantined emails, 100 at a time: {running.retried} so far ({counts(running)}).
          </p>
        </div>
      )}
      {result && <p className="notice">{result}</p>}
      <ErrorNotice error={bulk.error ?? list.error} onRetry={list.error ? list.reload : undefined} />
      {!list.data && list.loading && <Loading rows={2} />}
      {list.data && failures.length === 0 && (
        <Empty title="No quarantined emails">Every alert was understood.</Empty>
      )}
      <ul className="failures">
        {failures.map((f) => (
          <FailureItem key={f.id} f={f} onChanged={list.reload} />
        ))}
      </ul>
    </div>
  );
}

function FailureItem({ f, onChanged }: { f: ParseFailure; onChanged: () => void }) {
  const { canWrite, refreshHealth } = useApp();
  const [expanded, setExpanded] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const path = { path: { failure_id: f.id } };
  const done = () => {
    onChanged();
    refreshHealth();
  };
  const retry = () =>
    run(async () => {
      const r = await unwrap(api.POST("/api/v1/parse-failures/{failure_id}/retry", { params: path }));
      setOutcome(
        r.status === "recovered"
          ? "Recovered: the transaction is in the journal now."
          : r.status === "duplicate"
            ? "Already stored: nothing new was added."
            : `Still not readable: ${r.reason ?? stageWords(r.failure_stage)}.`,
      );
      if (r.status !== "still_failing") done();
    });
  const dismiss = () =>
    run(async () => {
      await unwrap(api.DELETE("/api/v1/parse-failures/{failure_id}", { params: path }));
      done();
    }, "Dismissed");
  const open = f.status === "quarantined";
  return (
    <li className="failure">
      <div className="row-between wrap">
        <div>
          <strong>{f.subject ?? "(no subject)"}</strong>
          <div className="muted small">
            {[f.from_email, f.detected_institution, alertWhen(f.email_date, f.received_at)]
              .filter(Boolean)
              .join(" · ")}
          </div>
          <div className="small">
            <span className={`tag tag-${open ? "warn" : "ok"}`}>{STATUS_WORDS[f.status] ?? f.status}</span>{" "}
            {sentenceCase(stageWords(f.failure_stage))}
            {f.error ? `: ${f.error}` : ""}
          </div>
        </div>
        <div className="inline">
          <button
            type="button"
            className="btn btn-small"
            onClick={() => setExpanded(!expanded)}
            aria-expanded={expanded}
          >
            {expanded ? "Hide email" : open ? "Resolve…" : "Show email"}
          </button>
          {open && (
            <>
              <button type="button" className="btn btn-small" onClick={retry} disabled={!canWrite || busy}>
                Retry
              </button>
              <button
                type="button"
                className="btn btn-small btn-danger-quiet"
                onClick={dismiss}
                disabled={!canWrite || busy}
              >
                Dismiss
              </button>
            </>
          )}
        </div>
      </div>
      {outcome && <p className="notice">{outcome}</p>}
      <ErrorNotice error={error} />
      {expanded && <ResolvePanel failure={f} onResolved={done} />}
    </li>
  );
}

const STATUS_WORDS: Record<string, string> = {
  quarantined: "Needs review",
  resolved: "Resolved",
  dismissed: "Dismissed",
  recovered: "Recovered",
};

const sentenceCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The alert's own date (the email's Date header, in the journal's zone); the upload time only without one. */
function alertWhen(emailDate: string | null | undefined, receivedAt: string): string {
  if (emailDate) {
    const w = txWhen(emailDate);
    return [w.date, w.time].filter(Boolean).join(" ");
  }
  return `received ${stamp(receivedAt)}`;
}
