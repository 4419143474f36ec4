import { useState } from "react";
import { api, unwrap } from "../api/client";
import type { ParseFailure } from "../api/types";
import { AiNeeds, useAiReadiness } from "../components/AiGate";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { useAction } from "../components/useAction";
import { useApp } from "../lib/app";
import { stamp, txWhen } from "../lib/format";
import { useApi } from "../lib/useApi";
import { ResolvePanel } from "./ResolvePanel";

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
  const retryAll = () =>
    bulk.run(async () => {
      const r = await unwrap(api.POST("/api/v1/parse-failures/retry-all", { body: {} }));
      setResult(
        `Retried ${r.retried}: ${r.created} recovered, ${r.duplicates} already stored, ${r.still_failing} still failing.`,
      );
      list.reload();
      refreshHealth();
    });
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
            disabled={!canWrite || bulk.busy || !failures.length}
          >
            Retry all
          </button>
        </div>
      </div>
      <p className="muted small">
        Retry runs the parsers again (and AI rescue, when it is set up); resolve lets you type the transaction
        in beside the original email.
      </p>
      <AiNeeds action="alert_rescue" r={rescue} />
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

/** Why an email could not be read, in words (the API's failure_stage codes). */
const STAGE_WORDS: Record<string, string> = {
  no_parser_match: "no reader knows this bank's wording yet",
  extraction_empty: "the bank is known, but the amount, merchant or date could not be read",
  ai_extraction_failed: "the AI could not read it",
  ai_validation_failed: "the AI's reading did not match the email",
  db_validation_failed: "it could not be saved",
  authentication_failed: "the receiving server says the bank's own message failed authentication",
  email_too_complex: "it was refused unread: too large, too deeply nested or too many parts",
};

function stageWords(stage: string | null | undefined): string {
  return stage ? (STAGE_WORDS[stage] ?? stage.replace(/_/g, " ")) : "no reason given";
}

const sentenceCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The alert's own date (the email's Date header, in the journal's zone); the upload time only without one. */
function alertWhen(emailDate: string | null | undefined, receivedAt: string): string {
  if (emailDate) {
    const w = txWhen(emailDate);
    return [w.date, w.time].filter(Boolean).join(" ");
  }
  return `received ${stamp(receivedAt)}`;
}
