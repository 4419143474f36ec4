// Statements: upload, the history list, and (with ?id=) the review of one statement.
import { api, unwrap } from "../api/client";
import { AiNeeds, useAiReadiness } from "../components/AiGate";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { useApp } from "../lib/app";
import { navigate, useLocation } from "../lib/router";
import { useApi } from "../lib/useApi";
import { FileAccounts, fileParam, parseFileParam, reviewHref } from "./statements/FileAccounts";
import { StatementList } from "./statements/StatementList";
import { StatementReview } from "./statements/StatementReview";
import type { UploadResponse } from "./statements/types";
import { UploadBox } from "./statements/UploadBox";

export function StatementsPage() {
  const { query } = useLocation();
  const id = query.get("id");
  const file = query.get("file");
  if (!id) return <StatementsHome />;
  return (
    <StatementReview
      key={id}
      id={id}
      accounts={file ? <FileAccounts accounts={parseFileParam(file)} current={id} file={file} /> : null}
    />
  );
}

function StatementsHome() {
  const { canWrite } = useApp();
  const list = useApi(() => unwrap(api.GET("/api/v1/statements")), "statements");
  const ai = useAiReadiness("statement_reading");
  return (
    <section aria-labelledby="statements-h" className="page">
      <div className="page-head">
        <h1 id="statements-h">Statements</h1>
      </div>
      <p className="muted">
        The monthly statement is the ground truth: upload it to see which rows your alert emails already
        caught, and import the rest. A PDF the built-in readers do not know can be read by AI.
      </p>
      <AiNeeds action="statement_reading" r={ai} />
      <UploadBox
        canWrite={canWrite}
        onUploaded={(r) =>
          // A file of several accounts: every review of it lists them all.
          navigate(
            reviewHref(r.statement_id, r.other_statements?.length ? fileParam(r as UploadResponse) : null),
          )
        }
      />
      <h2 className="small-h">History</h2>
      {list.loading && !list.data && <Loading />}
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {list.data && list.data.count === 0 && (
        <Empty title="No statements yet">
          Upload a statement PDF (or a CSV, OFX or QFX export) to begin.
        </Empty>
      )}
      {list.data && list.data.count > 0 && <StatementList statements={list.data.statements} />}
    </section>
  );
}
