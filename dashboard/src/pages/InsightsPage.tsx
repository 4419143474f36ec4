import { useState } from "react";
import { api, unwrap } from "../api/client";
import { AiButton, AiNeeds, useAiReadiness } from "../components/AiGate";
import { MonthPicker } from "../components/MonthPicker";
import { ErrorNotice, Loading, Spinner } from "../components/States";
import { useAction } from "../components/useAction";
import { useApp } from "../lib/app";
import { monthLabel, stamp } from "../lib/format";
import { useMonthParam } from "../lib/month";
import { useApi } from "../lib/useApi";
import { Briefing } from "./insights/Briefing";
import { ContextPanel } from "./insights/ContextPanel";
import { usePolledStatus } from "./insights/usePolledStatus";

const PHASES: Record<string, string> = {
  queued: "Waiting for a worker…",
  context: "Gathering the month's figures…",
  writing: "The model is writing the briefing…",
  checking: "Checking every figure against the context…",
};

export function InsightsPage() {
  const { month, setMonth } = useMonthParam();
  const { canWrite } = useApp();
  const saved = useApi(
    () => unwrap(api.GET("/api/v1/insights/saved", { params: { query: { month } } })),
    month,
  );
  const [picked, setPicked] = useState<string | null>(null);
  const ready = useAiReadiness("insights");
  const { busy, error, run } = useAction();
  const job = usePolledStatus(
    () => unwrap(api.GET("/api/v1/insights/status")),
    (s) => {
      saved.reload();
      if (s.insight_id) setPicked(s.insight_id);
    },
  );
  const items = saved.data?.items ?? [];
  const openId = picked && items.some((i) => i.id === picked) ? picked : (items[0]?.id ?? null);
  const st = job.status;
  const running = st?.status === "running";
  const generate = () =>
    run(async () => {
      await unwrap(api.POST("/api/v1/insights/generate", { params: { query: { month } } }));
      job.started();
    });
  return (
    <section aria-labelledby="insights-h">
      <div className="page-head">
        <h1 id="insights-h">Insights</h1>
        <MonthPicker
          value={month}
          onChange={(m) => {
            setPicked(null);
            setMonth(m);
          }}
        />
      </div>
      <div className="card" data-testid="insights-generate">
        <div className="row-between">
          <p className="muted">
            A written briefing on {monthLabel(month)}: what changed, what to watch, how the budget is going.
          </p>
          <AiButton
            action="insights"
            r={ready}
            className="btn btn-primary"
            onClick={generate}
            disabled={!canWrite || busy || running}
          >
            {running ? "Writing…" : "Generate briefing"}
          </AiButton>
        </div>
        <AiNeeds action="insights" r={ready} />
        {running && (
          <p role="status" data-testid="insights-progress">
            <Spinner /> {PHASES[st.phase ?? ""] ?? "Working…"}{" "}
            {st.month && st.month !== month && `(${monthLabel(st.month)})`}
          </p>
        )}
        {st?.status === "error" && st.error && (
          <p className="notice notice-error" role="alert" data-testid="insights-job-error">
            {st.error}
          </p>
        )}
        <ErrorNotice error={error} />
      </div>
      <ErrorNotice error={saved.error} onRetry={saved.reload} />
      {!saved.data && saved.loading && <Loading rows={3} />}
      {saved.data && items.length === 0 && !running && (
        <p className="muted" data-testid="insights-none">
          No briefing saved for {monthLabel(month)} yet.
        </p>
      )}
      {items.length > 0 && (
        <div className="insights-layout">
          <nav aria-label="Saved briefings" className="card insights-saved">
            <h2>Saved</h2>
            <ul>
              {items.map((i) => (
                <li key={i.id}>
                  <button
                    type="button"
                    className="btn btn-link"
                    aria-current={i.id === openId ? "true" : undefined}
                    onClick={() => setPicked(i.id)}
                  >
                    {stamp(i.generated_at)}
                    {i.figures_ok === false && <span className="tag tag-warn"> figures to check</span>}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          {openId && <Briefing id={openId} month={month} />}
        </div>
      )}
      <ContextPanel month={month} />
    </section>
  );
}
