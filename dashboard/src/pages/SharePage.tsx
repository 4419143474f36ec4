// Where the installed app's share target lands (manifest share_target → public/sw.js → here). The
// shared files are first shown (name, size, kind) and nothing is sent until the owner keeps them
// here (issue 35: a share is a door other apps and pages can knock on); dropped ones are gone.
// Each kept file goes where it belongs, through the same API a drop on the page uses — an email to the
// pipeline, a photo to the receipts, a statement file to its review, a PDF to statements (or to
// the receipts when it does not read as a statement) — and the outcome is said in words.
import { useCallback, useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import { ApiError } from "../api/errors";
import type { UploadResult } from "../api/types";
import { Empty, ErrorNotice, Spinner } from "../components/States";
import { useApp } from "../lib/app";
import { money } from "../lib/format";
import { dropSharedFile, type ShareKind, shareKind, type SharedFile, sharedFiles } from "../lib/pwa";
import { Link, useLocation } from "../lib/router";
import { uploadReceipt } from "./receipts/api";

interface Outcome {
  /** The shared file's key in the service worker's cache. */
  key?: string;
  name: string;
  tone: "ok" | "info" | "warn" | "error";
  title: string;
  detail?: string;
  link?: { to: string; label: string };
}

const EMAIL_WORDS: Record<UploadResult["status"], [Outcome["tone"], string]> = {
  created: ["ok", "Added to your journal"],
  duplicate: ["info", "Already in your journal"],
  quarantined: ["warn", "Waiting in Needs review: it could not be read by itself"],
  ignored: ["info", "Not a transaction alert, so nothing was added"],
};

const multipart = (file: File) => {
  const fd = new FormData();
  fd.append("file", file, file.name);
  return fd;
};

async function sendEmail(file: File): Promise<Outcome> {
  const r = await unwrap(
    api.POST("/api/v1/transactions/upload-eml", {
      body: { file: file as unknown as string },
      bodySerializer: () => multipart(file),
    }),
  );
  const [tone, title] = EMAIL_WORDS[r.status];
  const month = r.date_file_name?.match(/^(\d{4})\.(\d{2})\./);
  return {
    name: file.name,
    tone,
    title,
    detail: r.company
      ? `${r.company}${r.amount !== null ? ` · ${money(r.amount)}` : ""}`
      : (r.detail ?? undefined),
    link:
      r.status === "quarantined"
        ? { to: "/review", label: "Open Needs review" }
        : month
          ? { to: `/?month=${month[1]}-${month[2]}`, label: "Open the journal" }
          : undefined,
  };
}

async function sendStatement(file: File): Promise<Outcome> {
  const r = await unwrap(
    api.POST("/api/v1/statements/upload", {
      body: { file: file as unknown as string },
      bodySerializer: () => multipart(file),
    }),
  );
  return {
    name: file.name,
    tone: "ok",
    title: "Statement read: review it before anything is imported",
    link: { to: `/statements?id=${encodeURIComponent(r.statement_id)}`, label: "Review the statement" },
  };
}

async function sendReceipt(file: File, why?: string): Promise<Outcome> {
  await uploadReceipt(file);
  return {
    name: file.name,
    tone: "ok",
    title: "Added to your receipts",
    detail: why,
    link: { to: "/receipts", label: "Open Receipts" },
  };
}

async function deliver(file: File): Promise<Outcome> {
  switch (shareKind(file)) {
    case "email":
      return sendEmail(file);
    case "receipt":
      return sendReceipt(file);
    case "statement":
      return sendStatement(file);
    case "statement-or-receipt":
      try {
        return await sendStatement(file);
      } catch (err) {
        // A PDF that does not read as a statement is most likely a receipt.
        if (err instanceof ApiError && (err.status === 422 || err.status === 415))
          return sendReceipt(
            file,
            `It did not read as a statement (${err.message}), so it was kept as a receipt.`,
          );
        throw err;
      }
    default:
      return {
        name: file.name,
        tone: "error",
        title: "Not something the journal reads",
        detail: "Share a receipt photo, a bank alert email (.eml), or a statement (PDF, CSV, OFX, QFX, QIF).",
      };
  }
}

const KIND_WORDS: Record<ShareKind, string> = {
  email: "Bank alert email",
  receipt: "Receipt photo",
  statement: "Statement file",
  "statement-or-receipt": "PDF: a statement, or else a receipt",
  unknown: "Not something the journal reads",
};

/** A file size in words (bytes, KB, MB). */
export function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function SharePage() {
  const { canWrite, refreshHealth } = useApp();
  const { query } = useLocation();
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [waiting, setWaiting] = useState<SharedFile[] | null>(null);
  const [sending, setSending] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(async () => {
    try {
      setWaiting(await sharedFiles());
    } catch (err) {
      setError(err);
      setWaiting([]);
    }
  }, []);
  useEffect(() => {
    if (canWrite) void load();
  }, [canWrite, load]);

  const drop = async (files: SharedFile[]) => {
    for (const f of files) await dropSharedFile(f.key);
    await load();
  };

  const keep = async (files: SharedFile[]) => {
    setError(null);
    setSending(files.length);
    try {
      for (const f of files) {
        let outcome: Outcome;
        try {
          outcome = await deliver(f.file);
        } catch (err) {
          // Offline or a server error: the file stays to be kept again; a refusal is final.
          if (!(err instanceof ApiError) || err.status >= 500) {
            setError(err);
            continue;
          }
          outcome = { name: f.file.name, tone: "error", title: "Not added", detail: err.message };
        }
        await dropSharedFile(f.key);
        setOutcomes((o) => [...o, { ...outcome, key: f.key }]);
      }
      refreshHealth();
    } finally {
      setSending(null);
      await load();
    }
  };

  const skipped = Number(query.get("skipped") ?? 0);
  return (
    <section aria-labelledby="share-h" className="page-narrow">
      <div className="page-head">
        <h1 id="share-h">Shared with the journal</h1>
      </div>
      {query.get("error") === "unreadable" && (
        <p className="notice notice-warn">The shared files could not be read. Try sharing them again.</p>
      )}
      {query.get("refused") === "1" && (
        <p className="notice notice-warn" role="alert" data-testid="share-refused">
          A share that did not come from your device's share sheet or from this journal was refused: nothing
          was kept.
        </p>
      )}
      {skipped > 0 && (
        <p className="notice notice-warn">
          {skipped === 1 ? "One file was" : `${skipped} files were`} not kept: too large, or too many waiting
          (at most 10 files, 10 MB each).
        </p>
      )}
      {!canWrite && <p className="muted">Sharing is turned off in the read-only demo.</p>}
      {waiting === null && canWrite && (
        <p role="status">
          <Spinner /> Reading what you shared…
        </p>
      )}
      {sending !== null && (
        <p role="status">
          <Spinner /> Adding {sending === 1 ? "1 file" : `${sending} files`}…
        </p>
      )}
      <ErrorNotice error={error} />
      {waiting !== null && waiting.length > 0 && (
        <div className="card" data-testid="share-waiting">
          <h2>Keep {waiting.length === 1 ? "this file" : `these ${waiting.length} files`}?</h2>
          <p className="muted">
            Nothing is added until you keep it. Keep only what you just shared yourself; drop anything you do
            not recognise.
          </p>
          <ul className="plain-list">
            {waiting.map((f) => (
              <li key={f.key} className="share-item" data-testid="share-item">
                <strong>{f.file.name}</strong>{" "}
                <span className="muted small">
                  {sizeWords(f.file.size)} · {KIND_WORDS[shareKind(f.file)]} · shared{" "}
                  {new Date(f.sharedAt).toLocaleString()}
                </span>{" "}
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={`Drop ${f.file.name}`}
                  disabled={sending !== null}
                  onClick={() => void drop([f])}
                >
                  Drop
                </button>
              </li>
            ))}
          </ul>
          <div className="actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={sending !== null}
              onClick={() => void keep(waiting)}
            >
              Keep
            </button>
            <button
              type="button"
              className="btn"
              disabled={sending !== null}
              onClick={() => void drop(waiting)}
            >
              Drop all
            </button>
          </div>
        </div>
      )}
      {waiting?.length === 0 && outcomes.length === 0 && !error && (
        <Empty title="Nothing is waiting here">
          <p className="muted">
            On a phone, install the journal (your browser's “Add to Home screen”), then share a receipt photo,
            a bank alert email or a statement to it from any app.
          </p>
        </Empty>
      )}
      <ul className="plain-list" data-testid="share-outcomes">
        {outcomes.map((o) => (
          <li key={o.key ?? o.name} className={`card outcome outcome-${o.tone}`} role="status">
            <h2>{o.title}</h2>
            <p className="muted small">{o.name}</p>
            {o.detail && <p>{o.detail}</p>}
            {o.link && <Link to={o.link.to}>{o.link.label}</Link>}
          </li>
        ))}
      </ul>
    </section>
  );
}
