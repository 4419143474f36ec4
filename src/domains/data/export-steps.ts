/**
 * The full-data backup (format 2): the manifest first, one JSON file per table read in rowid pages,
 * then every file the rows point to (export-files.ts). Quarantined emails are included; secrets never
 * are. Up to DIRECT_LIMITS it streams in the request (writeBackup); beyond, zip-build.ts runs it as a
 * chain of steps, each within STEP, after a whole page or file. Memory stays at a batch of rows or
 * one chunk of one file (bench/backup-export.mjs measures it).
 */
import type { Env } from "../../env";
import type { QueueMessage } from "../../jobs/messages";
import type { SlotJob } from "../../db/job-slot-state";
import type { ServiceCtx } from "../../lib/context";
import { type Clock, systemClock } from "../../lib/clock";
import { log } from "../../lib/log";
import type { SteppedZip } from "../../lib/zip-steps";
import { FILE_LISTS, fileEntry } from "./export-files";
import { EXCLUDED_TABLES, EXPORTED_TABLES, exportFileName, shapeRow } from "./rules";
import { BATCH_ROWS, type PageSource, readPages } from "./pages";
import {
  addBody,
  builtZip,
  continueZipBuild,
  startZipBuild,
  streamZip,
  type ZipBuild,
  type ZipBuildSpec,
  type ZipSink,
  zipBuildStatus,
  zipBuildView,
} from "./zip-build";

export const STEP_KIND = "backup-step";
/** The slot kinds: the person's export and the daily backup never block each other. */
type BuildKind = "backup-export" | "backup-daily";

/** One step's budget (Workers Paid: 1,000 D1 queries and 1,000 subrequests an invocation, 30 s CPU). */
export const STEP = { queries: 100, files: 250, rows: 20_000, bytes: 96 * 1024 * 1024, ms: 10_000 };
export type StepBudget = typeof STEP;
const UNBOUNDED: StepBudget = {
  queries: Infinity,
  files: Infinity,
  rows: Infinity,
  bytes: Infinity,
  ms: Infinity,
};

/**
 * Up to these sizes GET /data/export streams the zip in the request itself (a direct answer, as the
 * SPEC has it): ≤ 20,000 rows is ≤ 11 D1 batches, ≤ 200 files ≤ 200 R2 reads. Beyond, it is built in steps.
 */
const DIRECT_LIMITS = { rows: 20_000, files: 200 };

const PAGE = 2000;

const exportKey = (id: string) => `exports/${id}.zip`;

interface BuildState extends ZipBuild {
  kind: BuildKind;
  tables: string[];
  /** Index into tables, then FILE_LISTS. */
  src: number;
  after: string | number;
  /** Rows written into the open table entry. */
  n: number;
  totals: { rows: number; files: number };
  /** Each table's rows at the start (what its pages are sized by). */
  counts: Record<string, number>;
  done: { rows: number; files: number; missing: number };
  prune: string | null;
}

/** The exported tables this database has (every one, once migrated), their row counts, the schema
 * versions and the totals a progress bar counts to (files: keys the rows point to, found or not). */
async function inventory(d1: D1Database) {
  const marks = EXPORTED_TABLES.map(() => "?").join(", ");
  const { results } = await d1
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${marks})`)
    .bind(...EXPORTED_TABLES)
    .all<{ name: string }>();
  const present = new Set(results.map((r) => r.name));
  const tables = EXPORTED_TABLES.filter((t) => present.has(t));
  const [versions, ...sizes] = await d1.batch<Record<string, unknown>>([
    d1.prepare("SELECT version FROM schema_version ORDER BY version"),
    ...tables.map((t) => d1.prepare(`SELECT COUNT(*) AS n FROM "${t}"`)),
    ...FILE_LISTS.map((f) => d1.prepare(`SELECT COUNT(*) AS n FROM (${allKeys(f.sql)})`)),
  ]);
  const n = (i: number) => Number(sizes[i]?.results[0]?.n ?? 0);
  const counts = Object.fromEntries(tables.map((t, i) => [t, n(i)]));
  const totals = {
    rows: sum(tables.map((_, i) => n(i))),
    files: sum(FILE_LISTS.map((_, i) => n(tables.length + i))),
  };
  return { tables, counts, totals, versions: (versions?.results ?? []).map((r) => Number(r.version)) };
}

const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);

/** A key list's SQL without its cursor and page (every key it holds). */
const allKeys = (sql: string) => sql.replace(/\s*WHERE \w+ > \? ORDER BY \w+ LIMIT$/, "");

/** Writes from where the state stopped until the budget is spent or the archive is done. */
async function work(env: Env, s: BuildState, zip: SteppedZip, parts: ZipSink, budget: StepBudget) {
  const start = Date.now();
  let queries = 0;
  let files = 0;
  let rows = 0;
  const begun = zip.state.offset;
  const room = () =>
    queries < budget.queries &&
    files < budget.files &&
    rows < budget.rows &&
    zip.state.offset - begun < budget.bytes &&
    Date.now() - start < budget.ms;
  // The tables: several tables' pages in one batch (pages.ts), in order, up to the budget.
  if (s.src < s.tables.length && room()) {
    const sources = s.tables.slice(s.src).map((table, i): PageSource<D1PreparedStatement> => {
      const left = (s.counts[table] ?? 0) - (i === 0 ? s.n : 0);
      let after = i === 0 ? Number(s.after) || 0 : 0;
      return {
        left: Math.max(0, left),
        page: (limit) =>
          env.DB.prepare(
            `SELECT rowid AS _rid, * FROM "${table}" WHERE rowid > ? ORDER BY rowid LIMIT ?`,
          ).bind(after, limit),
        take: async (page, last) => {
          if (!zip.state.open) {
            zip.begin(`${table}.json`);
            zip.add("[");
          }
          for (const row of page) {
            zip.add(`${s.n === 0 ? "\n" : ",\n"}${JSON.stringify(shapeRow(table, row))}`);
            s.n++;
          }
          rows += page.length;
          s.done.rows += page.length;
          after = Number(page.at(-1)?._rid ?? after);
          s.after = after;
          if (last) {
            zip.add("\n]\n");
            zip.end();
            next(s);
          }
          await parts.drain();
        },
      };
    });
    const run = async (stmts: D1PreparedStatement[]) => {
      queries++;
      return (await env.DB.batch<Record<string, unknown>>(stmts)).map((r) => r.results);
    };
    await readPages(run, sources, {
      ordered: true,
      budget: Math.min(BATCH_ROWS, budget.rows),
      stop: () => !room(),
    });
  }
  // The files: a page of keys, then each file streamed in, one R2 read each.
  while (s.src >= s.tables.length && s.src < s.tables.length + FILE_LISTS.length && room()) {
    const { list, sql } = FILE_LISTS[s.src - s.tables.length]!;
    const limit = Math.max(1, Math.min(PAGE, budget.files - files));
    const { results } = await env.DB.prepare(`${sql} ?`)
      .bind(String(s.after || ""), limit)
      .all<Record<string, unknown>>();
    queries++;
    for (const r of results) {
      // A file at a time: the step may stop between any two (the budget is checked before each).
      if (files > 0 && !room()) break;
      const e = fileEntry(list, r);
      s.after = String(r.k);
      if (!e) {
        if (list !== "emails") s.done.missing++;
        continue;
      }
      files++;
      const obj = await env.FILES.get(e.key);
      if (!obj) {
        s.done.missing++;
        continue;
      }
      zip.begin(e.name, e.level);
      await addBody(zip, parts, obj.body);
      zip.end();
      s.done.files++;
    }
    if (results.length < limit && String(s.after) === String(results.at(-1)?.k ?? s.after)) next(s);
    await parts.drain();
  }
  return s.src >= s.tables.length + FILE_LISTS.length;
}

function next(s: BuildState) {
  s.src++;
  s.after = "";
  s.n = 0;
}

/** The backup's manifest.json (the first entry: a reader knows the format before any table). */
const manifestText = (clock: Clock, env: Env, versions: number[], counts: Record<string, number>) =>
  `${JSON.stringify(
    {
      format: "finance-journal-backup",
      format_version: 2,
      exported_at: clock().toISOString(),
      app_version: env.APP_VERSION ?? null,
      schema_versions: versions,
      counts,
      excluded: EXCLUDED_TABLES,
      files:
        "files/attachments/<id> and files/statements/<id> hold the stored file of that row; " +
        "files/emails/... the raw emails rows point to (FileName, raw_key). A restore derives " +
        "every storage key itself and checks each file against its row's hash.",
    },
    null,
    2,
  )}\n`;

/** The backup's steps: the manifest first, then the tables' pages, then the stored files. */
const backupSpec = (budget: StepBudget): ZipBuildSpec<BuildState> => ({
  stepKind: STEP_KIND,
  name: "backup",
  failure: "The backup could not be written; try again.",
  async work(env, clock, s, zip, parts) {
    if (s.step === 1) {
      const inv = await inventory(env.DB);
      s.tables = inv.tables;
      s.counts = inv.counts;
      s.totals = inv.totals;
      zip.begin("manifest.json");
      zip.add(manifestText(clock, env, inv.versions, inv.counts));
      zip.end();
    }
    return work(env, s, zip, parts, budget);
  },
  progress: (s, done) => ({
    phase: done ? "done" : s.src < s.tables.length ? "tables" : "files",
    rows_done: s.done.rows,
    rows_total: Math.max(s.totals.rows, s.done.rows),
    // Files read so far, found or not (the bar reaches its end); `missing` says how many were not.
    files_done: Math.min(s.done.files + s.done.missing, Math.max(s.totals.files, s.done.files)),
    files_total: Math.max(s.totals.files, s.done.files),
    missing: s.done.missing,
    bytes: s.zip.offset,
  }),
  result: (s) => ({
    key: s.key,
    bytes: s.zip.offset,
    rows: s.done.rows,
    files: s.done.files,
    missing: s.done.missing,
  }),
  finished: (env, s) => pruneOld(env.FILES, s),
});

/**
 * Keeps the newest `keep` zips under the prune prefix (the daily backups; the last export), this
 * build's own zip always among them. Newest by upload time: an export's key is its job's random id,
 * so the key's order says nothing (sorting keys once deleted the zip just built).
 */
async function pruneOld(bucket: R2Bucket, s: BuildState) {
  if (!s.prune) return;
  const [prefix, keep] = [s.prune.split("|")[0]!, Number(s.prune.split("|")[1])];
  const listed = await bucket.list({ prefix, delimiter: "/" });
  const others = listed.objects
    .filter((o) => o.key.endsWith(".zip") && o.key !== s.key)
    .sort((a, b) => a.uploaded.getTime() - b.uploaded.getTime() || (a.key < b.key ? -1 : 1))
    .map((o) => o.key);
  const old = others.slice(0, Math.max(0, others.length - (keep - 1)));
  if (old.length) await bucket.delete(old);
}

const fresh = (prune: string | null) => ({
  tables: [],
  src: 0,
  after: "",
  n: 0,
  totals: { rows: 0, files: 0 },
  counts: {},
  done: { rows: 0, files: 0, missing: 0 },
  prune,
});

/**
 * Starts a build into `key` and runs its first step here (a small journal is done when this
 * returns). `prune`: "prefix|n" keeps the newest n zips under prefix. A build of the same kind
 * still running (and alive) answers `ok: false` with it.
 */
export function startBuild(
  env: Env,
  clock: Clock,
  {
    kind,
    key,
    prune,
    budget = STEP,
  }: { kind: BuildKind; key: (id: string) => string; prune: string | null; budget?: StepBudget },
): ReturnType<typeof startZipBuild> {
  return startZipBuild(env, clock, backupSpec(budget), kind, (id) => ({ key: key(id), ...fresh(prune) }));
}

/** The whole backup streamed into `writable` (GET /data/export up to DIRECT_LIMITS). */
export async function writeBackup(
  ctx: Pick<ServiceCtx, "env" | "clock">,
  writable: WritableStream<Uint8Array>,
) {
  try {
    const s = await streamZip(ctx.env, ctx.clock, backupSpec(UNBOUNDED), fresh(null), writable);
    log("info", "data_export.files", { ...s.done });
  } catch (err) {
    log("error", "data_export.failed", { error: String(err) });
  }
}

/** The queue's "backup-step" job: the next step of a running build (a stale or repeated message is dropped). */
export function runBuildStep(
  env: Env,
  msg: QueueMessage,
  clock: Clock = systemClock,
  budget: StepBudget = STEP,
): Promise<boolean> {
  return continueZipBuild(env, clock, backupSpec(budget), ["backup-export", "backup-daily"], msg);
}

// The person's export (GET /data/export beyond DIRECT_LIMITS, and the dashboard's Backup page)

/** The latest export build, as the API returns it. */
function buildView(job: SlotJob | null) {
  const { view, num } = zipBuildView(job, (id) => `/api/v1/data/export/jobs/${id}/file`);
  return {
    ...view,
    rows_done: num("rows_done"),
    rows_total: num("rows_total"),
    files_done: num("files_done"),
    files_total: num("files_total"),
  };
}

/** Starts the person's export build (the previous export zip is removed once this one is done). */
export async function startExport(env: Env, clock: Clock, budget: StepBudget = STEP) {
  const res = await startBuild(env, clock, {
    kind: "backup-export",
    key: exportKey,
    prune: "exports/|1",
    budget,
  });
  return { started: res.ok, view: buildView(res.job) };
}

export async function exportStatus(env: Env, clock: Clock) {
  return buildView(await zipBuildStatus(env, clock, "backup-export"));
}

/** The finished export's zip (null when that build is not the latest done one, or its zip is gone). */
export async function builtExport(env: Env, id: string) {
  const built = await builtZip(env, "backup-export", id, exportKey);
  return built ? { obj: built.obj, filename: exportFileName(built.job.started_at) } : null;
}

/**
 * True when the journal is small enough to stream its zip in one request: rows and stored files, each
 * counted up to just past DIRECT_LIMITS in one batch (a failed count: try it).
 */
export async function fitsOneRequest(d1: D1Database): Promise<boolean> {
  const cap = (sql: string, n: number) => `SELECT COUNT(*) AS size FROM (${sql} LIMIT ${n + 1})`;
  const rows = EXPORTED_TABLES.map((t) => d1.prepare(cap(`SELECT 1 FROM "${t}"`, DIRECT_LIMITS.rows)));
  const files = FILE_LISTS.map((f) => d1.prepare(cap(allKeys(f.sql), DIRECT_LIMITS.files)));
  const out = await d1.batch<{ size: number }>([...rows, ...files]).catch(() => null);
  const n = out?.map((r) => Number(r.results[0]?.size ?? 0)) ?? [];
  return (
    !out ||
    (sum(n.slice(0, rows.length)) <= DIRECT_LIMITS.rows && sum(n.slice(rows.length)) <= DIRECT_LIMITS.files)
  );
}
