// Where the installed app's share target lands (manifest share_target → public/sw.js → here): each
// shared file goes where it belongs, through the same API a drop on the page uses — an email to the
// pipeline, a photo to the receipts, a statement file to its review, a PDF to statements (or to
// the receipts when it does not read as a statement) — and the outcome is said in words.
import { useEffect, useRef, useState } from "react";
import { api, unwrap } from "../api/client";
import { ApiError } from "../api/errors";
import type { UploadResult } from "../api/types";
import { Empty, ErrorNotice, Spinner } from "../components/States";
import { useApp } from "../lib/app";
import { money } from "../lib/format";
import { dropSharedFile, shareKind, type SharedFile, sharedFiles } from "../lib/pwa";
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

export function SharePage() {
  const { canWrite, refreshHealth } = useApp();
  const { query } = useLocation();
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [pending, setPending] = useState<SharedFile[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !canWrite) return;
    started.current = true;
    (async () => {
      try {
        const files = await sharedFiles();
        setPending(files);
        for (const f of files) {
          let outcome: Outcome;
          try {
            outcome = await deliver(f.file);
          } catch (err) {
            // Offline or a server error: the file stays for the next visit; a refusal is final.
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
      } catch (err) {
        setError(err);
      } finally {
        setPending((p) => p ?? []);
      }
    })();
  }, [canWrite, refreshHealth]);

  const done = pending !== null && outcomes.length >= pending.length;
  return (
    <section aria-labelledby="share-h" className="page-narrow">
      <div className="page-head">
        <h1 id="share-h">Shared with the journal</h1>
      </div>
      {query.get("error") === "unreadable" && (
        <p className="notice notice-warn">The shared files could not be read. Try sharing them again.</p>
      )}
      {!canWrite && <p className="muted">Sharing is turned off in the read-only demo.</p>}
      {pending === null && canWrite && (
        <p role="status">
          <Spinner /> Reading what you shared…
        </p>
      )}
      {pending !== null && !done && (
        <p role="status">
          <Spinner /> Adding {pending.length - outcomes.length} of {pending.length}…
        </p>
      )}
      <ErrorNotice error={error} />
      {pending?.length === 0 && !error && (
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
