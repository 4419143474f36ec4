import { useEffect, useRef, useState } from "react";
import { ChooseFile, DropZone } from "../components/DropZone";
import { api, unwrap } from "../api/client";
import type { UploadResult } from "../api/types";
import { AiNeeds, useAiReadiness } from "../components/AiGate";
import { Money } from "../components/Money";
import { ErrorNotice, Spinner } from "../components/States";
import { useAction } from "../components/useAction";
import { useApp } from "../lib/app";
import { uploadDetailWords } from "../lib/failure-words";
import { categoryLabel, monthLabel } from "../lib/format";
import { Link } from "../lib/router";

const OUTCOMES: Record<UploadResult["status"], { title: string; tone: string }> = {
  created: { title: "Added to your journal", tone: "ok" },
  duplicate: { title: "Already in your journal", tone: "info" },
  quarantined: { title: "Quarantined: it could not be parsed", tone: "warn" },
  ignored: { title: "Ignored: not a transaction alert", tone: "info" },
};

function monthOf(dateFileName: string | null): string | null {
  const m = dateFileName?.match(/^(\d{4})\.(\d{2})\./);
  return m ? `${m[1]}-${m[2]}` : null;
}

export function UploadPage() {
  const { canWrite, categories, refreshHealth } = useApp();
  const [outcome, setOutcome] = useState<{ name: string; result: UploadResult } | null>(null);
  const [statementName, setStatementName] = useState<string | null>(null);
  const { busy, error, run } = useAction();

  const upload = (file: File | undefined) => {
    if (!file || !canWrite) return;
    setOutcome(null);
    setStatementName(null);
    // A statement is not an email: send the person to the page that reads it.
    if (/\.(pdf|csv|ofx|qfx)$/i.test(file.name) || file.type === "application/pdf") {
      setStatementName(file.name);
      return;
    }
    run(async () => {
      const result = await unwrap(
        api.POST("/api/v1/transactions/upload-eml", {
          body: { file: file as unknown as string },
          bodySerializer: (body) => {
            const fd = new FormData();
            fd.append("file", body.file as unknown as Blob, file.name);
            return fd;
          },
        }),
      );
      setOutcome({ name: file.name, result });
      refreshHealth();
    });
  };
  const r = outcome?.result;
  const month = monthOf(r?.date_file_name ?? null);
  // The result card comes into view (above a phone's bottom bar), not below the fold.
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (outcome || statementName) card.current?.scrollIntoView({ block: "center", behavior: "smooth" });
  }, [outcome, statementName]);
  return (
    <section aria-labelledby="upload-h" className="page-narrow">
      <div className="page-head">
        <h1 id="upload-h">Upload an email</h1>
      </div>
      <p className="muted">
        Drop a raw bank alert saved as <code>.eml</code>. It goes through the same pipeline as forwarded mail.
        Bank statements (PDF, CSV, OFX, QFX) go to <Link to="/statements">Statements</Link>, where each row is
        checked against your journal before anything is imported.
      </p>
      <AiEmailNeeds />
      <DropZone
        testId="dropzone"
        label="Drop zone for an email file"
        onFiles={(files) => upload(files[0])}
        enabled={canWrite}
      >
        <p className="dropzone-title">{busy ? "Uploading…" : "Drop an .eml file here"}</p>
        <p className="muted small">or</p>
        <ChooseFile
          accept=".eml,message/rfc822"
          label="Email file"
          testId="eml-input"
          disabled={!canWrite || busy}
          onFile={upload}
        >
          {busy ? <Spinner /> : null} Choose a file
        </ChooseFile>
        {!canWrite && <p className="muted small">Uploading is turned off in the read-only demo.</p>}
      </DropZone>
      <ErrorNotice error={error} />
      {statementName && (
        <div
          className="card outcome outcome-info"
          role="status"
          data-testid="upload-statement-hint"
          ref={card}
        >
          <h2>That looks like a bank statement</h2>
          <p className="muted small">{statementName}</p>
          <p>
            Statements are read on the <Link to="/statements">Statements</Link> page: drop it there to see
            every row matched against your journal before you import.
          </p>
        </div>
      )}
      {r && outcome && (
        <div
          className={`card outcome outcome-${OUTCOMES[r.status].tone}`}
          role="status"
          data-testid="upload-outcome"
          ref={card}
        >
          <h2>{OUTCOMES[r.status].title}</h2>
          <p className="muted small">{outcome.name}</p>
          {(r.company || r.amount !== null) && (
            <div className="row-between">
              <span>
                <strong>{r.company ?? "Unknown merchant"}</strong>
                {r.category && <span className="chip chip-gap">{categoryLabel(r.category, categories)}</span>}
              </span>
              <Money value={r.amount} />
            </div>
          )}
          {r.detail && <p>{uploadDetailWords(r.status, r.detail)}</p>}
          <p>
            {month && (r.status === "created" || r.status === "duplicate") && (
              <Link to={`/?month=${month}`} data-testid="upload-open-month">
                See it in {monthLabel(month)} of the journal
              </Link>
            )}
            {r.status === "quarantined" && <Link to="/review">Open Needs review</Link>}
          </p>
        </div>
      )}
    </section>
  );
}

/** What AI does with an uploaded email (categorizing, reading an unknown alert), or why it will not. */
function AiEmailNeeds() {
  const categorize = useAiReadiness("categorization");
  const rescue = useAiReadiness("alert_rescue");
  return (
    <div data-testid="upload-ai">
      {/* One notice: reading unknown alerts needs what categorizing needs, and more. */}
      {categorize && !categorize.ready ? (
        <AiNeeds action="categorization" r={categorize} />
      ) : (
        <>
          <AiNeeds action="categorization" r={categorize} />
          <AiNeeds action="alert_rescue" r={rescue} />
        </>
      )}
    </div>
  );
}
