import { useState } from "react";
import { api, unwrap } from "../../api/client";
import { AiButton, AiNeeds, useAiReadiness } from "../../components/AiGate";
import { ErrorNotice, Spinner } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { monthLabel } from "../../lib/format";
import { usePolledStatus } from "./usePolledStatus";

/** "Summarize month": writes the missing day summaries in the background, with progress. */
export function SummarizeMonth({ month, onDone }: { month: string; onDone: () => void }) {
  const { canWrite } = useApp();
  const ready = useAiReadiness("summaries");
  const { busy, error, run } = useAction();
  const [note, setNote] = useState<string | null>(null);
  const job = usePolledStatus(() => unwrap(api.GET("/api/v1/journal/summaries/status")), onDone);
  const st = job.status;
  const running = st?.status === "running";
  const start = () =>
    run(async () => {
      setNote(null);
      const res = await unwrap(
        api.POST("/api/v1/journal/summaries/generate", { body: { month, force: false } }),
      );
      if (res.status === "idle") setNote(`Every day of ${monthLabel(month)} already has a summary.`);
      else job.started();
    });
  return (
    <div className="summarize-month inline" data-testid="summarize-month">
      <AiButton action="summaries" r={ready} onClick={start} disabled={!canWrite || busy || running}>
        Summarize month
      </AiButton>
      {running && (
        <span role="status" data-testid="summarize-progress">
          <Spinner /> Writing day summaries{st.month ? ` for ${monthLabel(st.month)}` : ""}: {st.completed} of{" "}
          {st.total}
        </span>
      )}
      {st?.status === "error" && st.error && (
        <span className="text-danger small" role="alert">
          {st.error}
        </span>
      )}
      {note && <span className="muted small">{note}</span>}
      <ErrorNotice error={error} />
      <AiNeeds action="summaries" r={ready} />
    </div>
  );
}
