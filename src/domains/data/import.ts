/**
 * Backup restore: preview stages the uploaded zip in R2 under a random token (never its file name)
 * and reports what would change; commit re-reads the staged zip within 15 minutes and writes it.
 */
import { invalidateResolverCache } from "../../categorize";
import { getConfig, invalidateSettings } from "../config/service";
import { Gone, notFound, validationError } from "../../lib/errors";
import type { ServiceCtx } from "../../lib/context";
import { resolveUserId } from "../../ingest/users";
import { parseSearchCsv } from "./import-csv";
import { type FileSink, parseBackup } from "./backup-read";
import { assertNoFilesRunning, firstFiles, queueLaterFiles } from "./restore-steps";
import type { ParsedBackup } from "./import-rules";
import type { ImportResult, ImportStrategy } from "./import-schemas";
import { diffBackup } from "./import-store";
import { keepSecuritySettings } from "./restore-trust";
import { saveLists } from "./list-backups";
import { filesView, sample, summarize } from "./import-view";
import { configReplaced } from "./preview-config";
import { applyPlan, listVersions, plan, staleStagingQuery } from "./restore-swap";
import { getDb } from "../../db";
import { z } from "zod";
import { storedJson } from "../../db/json";

/** The list versions the preview saw (staged object's metadata); unreadable → no guard (logged). */
const readListVersions = storedJson(
  "staged import list_versions",
  z.record(z.string(), z.number()).nullable(),
  {
    value: () => null,
  },
);

const TTL_MS = 15 * 60 * 1000;
const SAMPLES = 5;
const stagedKey = (token: string) => `imports/${token}.zip`;
const TOKEN_RE = /^imp_[0-9a-f]{32}$/;

/** A zip (starts "PK") is a backup; anything else is read as a search CSV. */
const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b;

/**
 * The staged file as rows; CSV rows get the UserId their recipient maps to (as ingest would).
 * A zip's files are checked, and written to R2 only when `sink` is given (the commit).
 */
async function readSource(
  ctx: ServiceCtx,
  bytes: Uint8Array,
  sink: FileSink | null = null,
): Promise<ParsedBackup> {
  if (isZip(bytes)) return parseBackup(bytes, sink);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw validationError(
      [{ loc: ["body", "file"], msg: "not a zip or a UTF-8 CSV", type: "value_error" }],
      "The file is neither a backup zip nor a CSV",
    );
  }
  const parsed = parseSearchCsv(text);
  // The configured user (the isolate's settings: no read of the ingest lists this path never uses).
  const fallback = (await getConfig(ctx)).user_id;
  const users = new Map<string, string>();
  for (const row of parsed.tables.transactions ?? []) {
    const to = String(row.ForwardedTo);
    if (!users.has(to)) users.set(to, await resolveUserId(getDb(ctx.env.DB), to, fallback));
    row.UserId = users.get(to);
  }
  return parsed;
}

/** Settings documents the settings reader would reset to defaults: apply_config refuses them. */
const configProblems = (backup: ParsedBackup) =>
  backup.invalid.filter((i) => i.table === "app_config").map((i) => `app_config: ${i.reason}`);

export async function previewImport(ctx: ServiceCtx, upload: { bytes: Uint8Array; filename: string }) {
  const backup = await readSource(ctx, upload.bytes);
  const now = ctx.clock();
  const db = getDb(ctx.env.DB);
  const diffs = await diffBackup(db, backup);
  const versions = await listVersions(ctx.env.DB);
  await staleStagingQuery(db, now);
  const tables = summarize(diffs, backup.invalid);
  const tx = diffs.find((d) => d.name === "transactions")?.rows ?? [];
  const txInvalid = backup.invalid.filter((i) => i.table === "transactions");
  await dropExpired(ctx, now);
  const token = `imp_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
  await ctx.env.FILES.put(stagedKey(token), upload.bytes, {
    customMetadata: {
      staged_at: now.toISOString(),
      filename: upload.filename,
      // The configuration lists as the preview saw them: a commit that would replace a changed one is refused.
      list_versions: JSON.stringify(versions),
      source_kind: isZip(upload.bytes) ? "backup_zip" : "search_csv",
    },
  });
  const count = (name: string) => (name in backup.tables ? backup.tables[name]!.length : null);
  return {
    token,
    filename: upload.filename,
    source_kind: isZip(upload.bytes) ? "backup_zip" : "search_csv",
    expires_at: new Date(now.getTime() + TTL_MS).toISOString(),
    counts: transactionCounts(tables),
    tables,
    sample_new: tx
      .filter((r) => r.verdict === "new")
      .slice(0, SAMPLES)
      .map((r) => sample(r.row)),
    sample_duplicates: tx
      .filter((r) => r.verdict !== "new")
      .slice(0, SAMPLES)
      .map((r) =>
        sample(
          r.row,
          r.verdict === "identical" ? "identical to the stored row" : "differs from the stored row",
        ),
      ),
    sample_invalid: txInvalid.slice(0, SAMPLES).map((i) => sample(i.row, i.reason)),
    config: {
      budget_years_count: backup.tables.budget_config
        ? new Set(backup.tables.budget_config.map((r) => r.year)).size
        : null,
      categories_count: count("categories"),
      merchant_aliases_count: count("merchant_aliases"),
      overrides_count: count("overrides"),
      replaced: configReplaced(diffs),
      problems: configProblems(backup),
    },
    format_version: backup.formatVersion ?? null,
    files: filesView(backup),
  };
}

/** The transactions' counts of a preview (and of the restore that commits it): one reading of the diff. */
function transactionCounts(tables: ReturnType<typeof summarize>) {
  const t = tables.transactions ?? { total: 0, new: 0, identical: 0, different: 0, invalid: 0 };
  return { total: t.total, new: t.new, duplicates: t.identical + t.different, invalid: t.invalid };
}

/** Staged uploads nobody committed: removed on the next preview once past their 15 minutes. */
async function dropExpired(ctx: ServiceCtx, now: Date): Promise<void> {
  const listed = await ctx.env.FILES.list({ prefix: "imports/", limit: 100, include: ["customMetadata"] });
  const old = listed.objects
    .filter(
      (o) => now.getTime() - Date.parse(o.customMetadata?.staged_at ?? o.uploaded.toISOString()) > TTL_MS,
    )
    .map((o) => o.key);
  if (old.length) await ctx.env.FILES.delete(old);
}

export async function commitImport(
  ctx: ServiceCtx,
  req: { token: string; strategy: ImportStrategy; apply_config: boolean },
): Promise<ImportResult> {
  if (!TOKEN_RE.test(req.token)) throw notFound("Staged import");
  const obj = await ctx.env.FILES.get(stagedKey(req.token));
  if (!obj) throw notFound("Staged import");
  const stagedAt = Date.parse(obj.customMetadata?.staged_at ?? "");
  const now = ctx.clock();
  if (!Number.isFinite(stagedAt) || now.getTime() - stagedAt > TTL_MS) {
    await ctx.env.FILES.delete(stagedKey(req.token));
    throw new Gone("This preview is older than 15 minutes: upload the backup again");
  }
  // Files first (R2, under keys the server derives; the same bytes land on the same key), then the
  // rows in one atomic swap: a failure or a kill before the swap leaves the journal as it was.
  // The first FILES_PER_STEP files are written here; later ones by queued steps (restore-steps.ts).
  const files = firstFiles(ctx.env);
  const sink = files.sink;
  // A zip is read as it streams from R2 (never held whole); a CSV is text.
  const backup =
    obj.customMetadata?.source_kind === "backup_zip"
      ? await parseBackup(obj.body, sink)
      : await readSource(ctx, new Uint8Array(await obj.arrayBuffer()), sink);
  // Settings that weaken security or grant trust keep the journal's own values (restore-trust.ts).
  keepSecuritySettings(backup, (await getConfig({ env: ctx.env })) as unknown as Record<string, unknown>);
  const problems = configProblems(backup);
  if (req.apply_config && problems.length)
    throw validationError(
      problems.map((msg) => ({ loc: ["body", "apply_config"], msg, type: "value_error" })),
      `The backup's settings cannot be restored (${problems.join("; ")}); restore without settings, or fix the backup`,
    );
  if (files.later) await assertNoFilesRunning(ctx.env, ctx.clock);
  const diffs = await diffBackup(getDb(ctx.env.DB), backup);
  const versions = readListVersions(obj.customMetadata?.list_versions ?? null);
  const p = plan(diffs, {
    strategy: req.strategy,
    applyConfig: req.apply_config,
    copyTag: `import${req.token.slice(4, 10)}-`,
  });
  // The preview's counts, read from the same diff, beside what was done with each table's rows:
  // the top-level numbers are the transactions', as the preview's `counts` are.
  const tables = summarize(diffs, backup.invalid);
  const none = { inserted: 0, updated: 0, skipped: 0 };
  const { inserted, updated, skipped } = p.counts.tables.transactions ?? none;
  ctx.journal({
    resourceId: "backup",
    summary: `Restored a backup (${req.strategy}): ${inserted} transactions added, ${updated} replaced, ${skipped} left as they were`,
  });
  const counts = await applyPlan(ctx.env.DB, p, {
    token: req.token,
    nowIso: now.toISOString(),
    versions,
    batch: ctx.batch,
  });
  const later = files.later
    ? await queueLaterFiles(ctx.env, ctx.clock, stagedKey(req.token), req.token, files)
    : null;
  await ctx.env.FILES.delete(stagedKey(req.token));
  if (req.apply_config) {
    await saveLists(ctx.env);
    // The restored app_config replaces what this isolate cached.
    invalidateSettings();
    // Overrides and aliases came back (their config_versions were bumped in the swap).
    invalidateResolverCache();
  }
  return {
    inserted,
    updated,
    skipped,
    invalid: tables.transactions?.invalid ?? 0,
    errors: 0,
    counts: transactionCounts(tables),
    tables: Object.fromEntries(
      Object.entries(tables).map(([name, c]) => [name, { ...c, ...(counts.tables[name] ?? none) }]),
    ),
    config_applied: req.apply_config && Object.keys(counts.config).length > 0,
    config_details: counts.config,
    files: filesView(backup),
    files_later: later,
  };
}
