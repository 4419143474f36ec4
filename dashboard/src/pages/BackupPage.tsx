// Backup and restore: download the whole journal as a zip; restore one in two steps — a dry run
// that says what would change, then the import with a chosen way to treat rows already here.
import { useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { ScrollRegion } from "../components/ScrollRegion";
import { ErrorNotice } from "../components/States";
import { StepProgress } from "../components/StepProgress";
import { useAction } from "../components/useAction";
import { useZipBuild } from "../components/useZipBuild";
import { useApp } from "../lib/app";
import { megabytes, thousands } from "../lib/download";
import { money, stamp } from "../lib/format";
import { usePolledStatus } from "./insights/usePolledStatus";

type Preview = components["schemas"]["ImportPreviewResponse"];
type Build = components["schemas"]["BackupBuildStatus"];
type Result = components["schemas"]["ImportResult"];
type RestoreFiles = components["schemas"]["RestoreFilesStatus"];
type Strategy = "skip" | "overwrite" | "keep_both";

const STRATEGIES: { id: Strategy; label: string; help: string }[] = [
  {
    id: "skip",
    label: "Keep what is here",
    help: "Rows already in the journal stay as they are; only missing rows are added.",
  },
  {
    id: "overwrite",
    label: "Use the backup's version",
    help: "Rows that differ are replaced by the backup's copy.",
  },
  {
    id: "keep_both",
    label: "Keep both",
    help: "A transaction that differs is added as a second copy beside yours.",
  },
];

export function BackupPage() {
  const { canWrite } = useApp();
  const check = useAction();
  const apply = useAction();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [strategy, setStrategy] = useState<Strategy>("skip");
  // Off unless the person ticks it: a restore brings back data and keeps today's settings.
  const [applyConfig, setApplyConfig] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  const { download, build, start, getBuilt, building } = useZipBuild({
    load: () => unwrap(api.GET("/api/v1/data/export/jobs/current")),
    fetchBuilt: (job_id) =>
      api.GET("/api/v1/data/export/jobs/{job_id}/file", { params: { path: { job_id } }, parseAs: "blob" }),
    fallback: () => "finance-journal-backup.zip",
    done: "Backup downloaded",
  });

  // A backup with many files: its rows are restored at once, the rest of its files written in
  // steps afterwards (also shown after a reload while they are written).
  const restoreFiles = usePolledStatus(
    async () => unwrap(api.GET("/api/v1/data/import/files/current")),
    () => {},
    1500,
  );

  const runPreview = (f: File) =>
    check.run(async () => {
      setResult(null);
      setPreview(
        await unwrap(
          api.POST("/api/v1/data/import/preview", {
            body: { file: f as unknown as string },
            bodySerializer: (body) => {
              const fd = new FormData();
              fd.append("file", body.file as unknown as Blob, f.name);
              return fd;
            },
          }),
        ),
      );
    });

  const runCommit = () =>
    apply.run(async () => {
      if (!preview) return;
      const done = await unwrap(
        api.POST("/api/v1/data/import/commit", {
          body: { token: preview.token, strategy, apply_config: applyConfig },
        }),
      );
      setResult(done);
      if (done.files_later?.status === "running") restoreFiles.started();
      setPreview(null);
    }, "Backup restored");

  return (
    <section aria-labelledby="backup-h" className="page-narrow">
      <h1 id="backup-h">Backup and restore</h1>
      <div className="card">
        <h2>Download a backup</h2>
        <p>
          One zip with the whole journal: every transaction (trash and quarantine included), the raw alert
          emails they came from, your receipts and documents, your statement files, and your categories,
          rules, budgets and settings. Passwords, sessions and access tokens are never in it.
        </p>
        <p className="muted small" data-testid="backup-contents">
          The zip can be large when you keep many receipts: it is written as it downloads.
        </p>
        <ErrorNotice error={download.error} />
        {build.status && build.status.status !== "idle" && <BuildProgress b={build.status} />}
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => start(() => api.GET("/api/v1/data/export", { parseAs: "blob" }))}
          disabled={!canWrite || download.busy || building}
          data-testid="download-backup"
        >
          {download.busy ? "Preparing…" : building ? "Building the backup…" : "Download backup"}
        </button>
        {build.status?.status === "done" && build.status.download_url && (
          <button
            type="button"
            className="btn"
            onClick={() => build.status && void getBuilt(build.status)}
            disabled={download.busy}
            data-testid="download-built"
          >
            Download the last built backup ({megabytes(build.status.bytes)})
          </button>
        )}
      </div>
      <div className="card" data-testid="restore">
        <h2>Restore from a backup</h2>
        <p className="muted small">
          Nothing changes until you confirm: first you see what the backup would change.
        </p>
        <form
          className="inline wrap"
          onSubmit={(e) => {
            e.preventDefault();
            if (file) void runPreview(file);
          }}
        >
          <label className="field grow">
            <span>Backup zip (or a CSV from Search)</span>
            <input
              type="file"
              accept=".zip,application/zip,.csv,text/csv"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setPreview(null);
              }}
              data-testid="backup-file"
            />
          </label>
          <button type="submit" className="btn" disabled={!canWrite || !file || check.busy}>
            {check.busy ? "Checking…" : "Check this backup"}
          </button>
        </form>
        {!canWrite && <p className="muted small">Backups and restores are turned off in the demo.</p>}
        <ErrorNotice error={check.error} />
        {preview && (
          <PreviewView
            p={preview}
            strategy={strategy}
            onStrategy={setStrategy}
            applyConfig={applyConfig}
            onApplyConfig={setApplyConfig}
            busy={apply.busy}
            onApply={runCommit}
          />
        )}
        <ErrorNotice error={apply.error} />
        {restoreFiles.status && <RestoreFilesProgress r={restoreFiles.status} />}
        {result && (
          <div className="notice notice-ok" role="status" data-testid="restore-result">
            <p>
              <strong>Restored.</strong> Transactions: {countsLine(result.counts)}: {result.inserted} added,{" "}
              {result.updated} replaced, {result.skipped} left as they were
              {result.invalid ? `, ${result.invalid} unreadable rows skipped` : ""}.
              {result.files
                ? ` ${result.files.attachments} receipts and documents, ${result.files.statements} statement files and ${result.files.emails} raw emails ${result.files_later ? "being put back (the progress is shown above)" : "put back"}.`
                : ""}
              {result.config_applied
                ? " Categories, rules, budgets and settings restored."
                : " Your settings were kept."}{" "}
              You can see it on the Activity page.
            </p>
            <CountsTable tables={result.tables} written />
          </div>
        )}
      </div>
    </section>
  );
}

/**
 * A build in steps, in words and a bar: the rows first (every table), then the stored files
 * (receipts, statements, raw emails); its error when it failed.
 */
function BuildProgress({ b }: { b: Build }) {
  return (
    <StepProgress
      run={b}
      testId="backup-progress"
      label="Building the backup"
      max={b.rows_total + b.files_total}
      value={b.rows_done + b.files_done}
      failed="The backup could not be built"
      why="A large journal is written in steps in the background; it downloads here when done."
    >
      {b.phase === "counting"
        ? "Counting what to back up…"
        : `Building the backup: ${thousands(b.rows_done)} of ${thousands(b.rows_total)} rows, ${thousands(b.files_done)} of ${thousands(b.files_total)} files (${megabytes(b.bytes)} so far).`}
    </StepProgress>
  );
}

/** A restore's files still being written in steps (or why that stopped). */
function RestoreFilesProgress({ r }: { r: RestoreFiles }) {
  return (
    <StepProgress
      run={r}
      testId="restore-files-progress"
      label="Putting back the backup's files"
      max={r.files_total}
      value={r.files_done}
      failed="Not every file of the restore was put back"
      why="The rows are restored; a backup with many files has them written in steps in the background."
    >
      {`Putting back the backup's files: ${thousands(r.files_done)} of ${thousands(r.files_total)}.`}
    </StepProgress>
  );
}

/** The transactions' counts in the same words before and after the restore ("702 new, 3 already here"). */
function countsLine(c: Preview["counts"]): string {
  const parts = [`${c.new} new`, `${c.duplicates} already here`];
  if (c.invalid) parts.push(`${c.invalid} unreadable`);
  return parts.join(", ");
}

type TableCounts = Preview["tables"][string] & { inserted?: number; updated?: number; skipped?: number };

/** Every table's rows, the same columns in the preview and, with what was done, after the restore. */
function CountsTable({
  tables,
  written = false,
}: {
  tables: Record<string, TableCounts>;
  written?: boolean;
}) {
  const cols = ["New", "Same", "Different", "Unreadable", ...(written ? ["Added", "Replaced", "Left"] : [])];
  return (
    <ScrollRegion label={written ? "What the restore did, per table" : "What the backup holds, per table"}>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Table</th>
            {cols.map((c) => (
              <th key={c} scope="col" className="num">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Object.entries(tables).map(([name, c]) => (
            <tr key={name}>
              <td>{name.replaceAll("_", " ")}</td>
              <td className="num">{c.new}</td>
              <td className="num">{c.identical}</td>
              <td className="num">{c.different}</td>
              <td className="num">{c.invalid}</td>
              {written && (
                <>
                  <td className="num">{c.inserted ?? 0}</td>
                  <td className="num">{c.updated ?? 0}</td>
                  <td className="num">{c.skipped ?? 0}</td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

interface PreviewProps {
  p: Preview;
  strategy: Strategy;
  onStrategy: (s: Strategy) => void;
  applyConfig: boolean;
  onApplyConfig: (v: boolean) => void;
  busy: boolean;
  onApply: () => void;
}

function PreviewView({ p, strategy, onStrategy, applyConfig, onApplyConfig, busy, onApply }: PreviewProps) {
  return (
    <div className="drawer-section" data-testid="restore-preview">
      <h3>What {p.filename} would change</h3>
      <p data-testid="restore-counts">Transactions: {countsLine(p.counts)}.</p>
      <CountsTable tables={p.tables} />
      {p.sample_new.length > 0 && (
        <p className="small muted">
          For example:{" "}
          {p.sample_new
            .slice(0, 3)
            .map((s) => `${s.company ?? "?"} ${money(s.amount ?? null)}`)
            .join(", ")}
        </p>
      )}
      {p.files && (
        <p className="small" data-testid="restore-files">
          Files: {p.files.attachments} receipts and documents, {p.files.statements} statement files,{" "}
          {p.files.emails} raw emails.
          {p.files.refused.length > 0 &&
            ` Not restored: ${p.files.refused.map((f) => `${f.name} (${f.reason})`).join(", ")}.`}
        </p>
      )}
      {p.format_version === 1 && (
        <p className="small muted">
          This backup was made before backups held files: rows come back, receipts only if they are still
          stored here.
        </p>
      )}
      {p.sample_invalid.length > 0 && (
        <p className="small text-danger">
          Unreadable rows are skipped:{" "}
          {p.sample_invalid.map((s) => `${s.company ?? "?"} (${s.reason})`).join(", ")}
        </p>
      )}
      <fieldset className="strategy">
        <legend>Rows already in the journal</legend>
        {STRATEGIES.map((s) => (
          <label key={s.id} className="check strategy-option">
            <input
              type="radio"
              name="strategy"
              checked={strategy === s.id}
              onChange={() => onStrategy(s.id)}
            />
            <span>
              <strong>{s.label}</strong> <span className="muted small">{s.help}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <label className="check">
        <input
          type="checkbox"
          checked={applyConfig}
          onChange={(e) => onApplyConfig(e.target.checked)}
          disabled={(p.config?.problems?.length ?? 0) > 0}
          data-testid="apply-config"
        />
        Also restore categories, rules, budgets and settings (replaces the current ones)
      </label>
      {(p.config?.replaced?.length ?? 0) > 0 && (
        <p className="small muted" data-testid="restore-replaces">
          {applyConfig ? "Will replace: " : "Only if ticked, would replace: "}
          {p
            .config!.replaced!.map(
              (r) =>
                `${r.table.replaceAll("_", " ")} (${r.current_rows} here → ${r.backup_rows} from the backup)`,
            )
            .join(", ")}
          . Left unticked, your current settings stay as they are.
        </p>
      )}
      {(p.config?.problems?.length ?? 0) > 0 && (
        <p className="small text-danger">
          The backup's settings cannot be restored: {p.config!.problems!.join("; ")}
        </p>
      )}
      <p className="small muted">This check expires {stamp(p.expires_at)}.</p>
      <button
        type="button"
        className="btn btn-primary"
        onClick={onApply}
        disabled={busy}
        data-testid="apply-restore"
      >
        {busy ? "Restoring…" : "Restore this backup"}
      </button>
    </div>
  );
}
