/**
 * The backup zip built in bounded steps (issue 36): a household too large for one invocation (see
 * DIRECT_LIMITS) is written by a chain of steps, the first in the request (or cron run) that starts
 * it, each next one a queue message ("backup-step"). A step stops at STEP's budget (D1 queries,
 * stored files read, rows, bytes, wall time: each well under half of the Workers Paid
 * per-invocation limits), after a whole page or file. What the next step needs rides in one R2
 * object (the build's state: cursor, the zip's directory, the bytes under one upload part); the zip
 * goes into an R2 multipart upload in PART-sized parts. The single-slot Durable Object holds the
 * job's progress (rows and files done of their totals), which the status route returns.
 * The archive is the same format 2 zip as the streamed export (the restore reads both).
 */
import { z } from "zod";
import type { Env } from "../../env";
import type { QueueMessage } from "../../jobs/messages";
import { jobSlot } from "../../jobs/slot";
import type { SlotJob } from "../../jobs/slot-state";
import { type Clock, systemClock } from "../../lib/clock";
import { log } from "../../lib/log";
import { newZipState, SteppedZip, type ZipState } from "../../lib/zip-steps";
import { FILE_LISTS, fileEntry } from "./export-files";
import { EXPORTED_TABLES, shapeRow } from "./rules";
import { BATCH_ROWS, type PageSource, readPages } from "./pages";
import { inventory, manifestText, tablePageSql } from "./service";

export const STEP_KIND = "backup-step";
/** The slot kinds: the person's export and the daily backup never block each other. */
export type BuildKind = "backup-export" | "backup-daily";

/** One step's budget (Workers Paid: 1,000 D1 queries and 1,000 subrequests an invocation, 30 s CPU). */
export const STEP = { queries: 100, files: 250, rows: 20_000, bytes: 96 * 1024 * 1024, ms: 10_000 };
export type StepBudget = typeof STEP;

/**
 * Up to these sizes GET /data/export streams the zip in the request itself (a direct answer, as the
 * SPEC has it): ≤ 20,000 rows is ≤ 11 D1 batches, ≤ 200 files ≤ 200 R2 reads. Beyond, it is built in steps.
 */
export const DIRECT_LIMITS = { rows: 20_000, files: 200 };

/** R2 multipart parts (every part but the last the same size, at least 5 MiB). */
export const PART = 8 * 1024 * 1024;
const PAGE = 2000;
/** No step for this long: the build died (its status read fails it). */
const STALE_MS = 15 * 60 * 1000;
const LEASE_MS = 24 * 60 * 60 * 1000;

const stateKey = (id: string) => `exports/steps/${id}`;
export const exportKey = (id: string) => `exports/${id}.zip`;

interface BuildState {
  id: string;
  kind: BuildKind;
  key: string;
  step: number;
  tables: string[];
  /** Index into tables, then FILE_LISTS. */
  src: number;
  after: string | number;
  /** Rows written into the open table entry. */
  n: number;
  zip: ZipState;
  upload: { id: string; parts: R2UploadedPart[] } | null;
  totals: { rows: number; files: number };
  /** Each table's rows at the start (what its pages are sized by). */
  counts: Record<string, number>;
  done: { rows: number; files: number; missing: number };
  prune: string | null;
}

// ---------------------------------------------------------------------------------------------
// Sizes

/** Rows and stored files of the journal, each counted up to just past DIRECT_LIMITS (one batch). */
export async function exportSize(d1: D1Database): Promise<{ rows: number; files: number }> {
  const cap = (sql: string, n: number) => `SELECT COUNT(*) AS size FROM (${sql} LIMIT ${n + 1})`;
  const rows = EXPORTED_TABLES.map((t) => d1.prepare(cap(`SELECT 1 FROM "${t}"`, DIRECT_LIMITS.rows)));
  const files = FILE_LISTS.map((f) => d1.prepare(cap(allKeys(f.sql), DIRECT_LIMITS.files)));
  const out = await d1.batch<{ size: number }>([...rows, ...files]);
  const n = (i: number) => Number(out[i]?.results[0]?.size ?? 0);
  let r = 0;
  for (let i = 0; i < rows.length; i++) r += n(i);
  let f = 0;
  for (let i = rows.length; i < out.length; i++) f += n(i);
  return { rows: r, files: f };
}

/** A key list's SQL without its cursor and page (every key it holds). */
const allKeys = (sql: string) => sql.replace(/\s*WHERE \w+ > \? ORDER BY \w+ LIMIT$/, "");

/** The totals a progress bar counts to (files: keys the rows point to, before any is found missing). */
async function totals(d1: D1Database, counts: Record<string, number>) {
  const rows = Object.values(counts).reduce((a, b) => a + b, 0);
  const stmts = FILE_LISTS.map((f) => d1.prepare(`SELECT COUNT(*) AS size FROM (${allKeys(f.sql)})`));
  const out = await d1.batch<{ size: number }>(stmts);
  return { rows, files: out.reduce((a, r) => a + Number(r.results[0]?.size ?? 0), 0) };
}

// ---------------------------------------------------------------------------------------------
// The bytes: whole parts go up as they fill, the rest rides to the next step in the state object

class Parts {
  private chunks: Uint8Array[] = [];
  private size = 0;
  constructor(
    private readonly bucket: R2Bucket,
    private readonly s: BuildState,
    carry: Uint8Array,
  ) {
    if (carry.length) this.push(carry);
  }
  push = (b: Uint8Array) => {
    if (!b.length) return;
    this.chunks.push(b);
    this.size += b.length;
  };
  private take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const c = this.chunks[0]!;
      const k = Math.min(c.length, n - at);
      out.set(c.subarray(0, k), at);
      at += k;
      if (k === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(k);
    }
    this.size -= n;
    return out;
  }
  private async upload(bytes: Uint8Array) {
    const meta = { httpMetadata: { contentType: "application/zip" } };
    const up = this.s.upload
      ? this.bucket.resumeMultipartUpload(this.s.key, this.s.upload.id)
      : await this.bucket.createMultipartUpload(this.s.key, meta);
    this.s.upload ??= { id: up.uploadId, parts: [] };
    const part = await up.uploadPart(this.s.upload.parts.length + 1, bytes);
    this.s.upload.parts.push({ partNumber: part.partNumber, etag: part.etag });
  }
  /** Uploads every whole part held. */
  async drain() {
    while (this.size >= PART) await this.upload(this.take(PART));
  }
  /** What is left (under one part). */
  rest = () => this.take(this.size);
  /** The archive's end: the last part and the upload's completion (or one put when it is small). */
  async complete() {
    const last = this.take(this.size);
    if (!this.s.upload) {
      await this.bucket.put(this.s.key, last, { httpMetadata: { contentType: "application/zip" } });
      return;
    }
    if (last.length) await this.upload(last);
    await this.bucket.resumeMultipartUpload(this.s.key, this.s.upload.id).complete(this.s.upload.parts);
  }
}

async function saveState(bucket: R2Bucket, s: BuildState, carry: Uint8Array) {
  const json = new TextEncoder().encode(JSON.stringify(s));
  const out = new Uint8Array(4 + json.length + carry.length);
  new DataView(out.buffer).setUint32(0, json.length);
  out.set(json, 4);
  out.set(carry, 4 + json.length);
  await bucket.put(stateKey(s.id), out);
}

async function loadState(bucket: R2Bucket, id: string) {
  const obj = await bucket.get(stateKey(id));
  if (!obj) return null;
  const bytes = new Uint8Array(await obj.arrayBuffer());
  const len = new DataView(bytes.buffer).getUint32(0);
  const s = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + len))) as BuildState;
  return { s, carry: bytes.subarray(4 + len) };
}

// ---------------------------------------------------------------------------------------------
// One step

/** Writes from where the state stopped until the budget is spent or the archive is done. */
async function work(env: Env, s: BuildState, zip: SteppedZip, parts: Parts, budget: StepBudget) {
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
        page: (limit) => env.DB.prepare(`${tablePageSql(table)} ?`).bind(after, limit),
        take: (page, last) => {
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
    await parts.drain();
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
      const reader = obj.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        zip.add(value);
        await parts.drain();
      }
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

const progressOf = (s: BuildState, clock: Clock, phase: string) => ({
  phase,
  rows_done: s.done.rows,
  rows_total: Math.max(s.totals.rows, s.done.rows),
  // Files read so far, found or not (the bar reaches its end); `missing` says how many were not.
  files_done: Math.min(s.done.files + s.done.missing, Math.max(s.totals.files, s.done.files)),
  files_total: Math.max(s.totals.files, s.done.files),
  missing: s.done.missing,
  bytes: s.zip.offset,
  steps: s.step,
  updated_at: clock().toISOString(),
});

/**
 * Runs one step of the build: on to the budget, then either the next step queued (the state saved)
 * or the archive completed and the job done. Never throws: a failure ends the job with its reason.
 */
async function runStep(
  env: Env,
  clock: Clock,
  s: BuildState,
  carry: Uint8Array,
  budget: StepBudget,
): Promise<boolean> {
  const slot = jobSlot(env, s.kind);
  const parts = new Parts(env.FILES, s, carry);
  const zip = new SteppedZip(s.zip, parts.push);
  try {
    if (s.step === 0) {
      const inv = await inventory(env.DB);
      s.tables = inv.tables;
      s.counts = inv.counts;
      s.totals = await totals(env.DB, inv.counts);
      zip.begin("manifest.json");
      zip.add(manifestText({ env, clock }, inv.versions, inv.counts));
      zip.end();
    }
    s.step++;
    const finished = await work(env, s, zip, parts, budget);
    if (!finished) {
      zip.suspend();
      await parts.drain();
      await saveState(env.FILES, s, parts.rest());
      await slot.progress(s.id, progressOf(s, clock, s.src < s.tables.length ? "tables" : "files"));
      await env.JOBS.send({
        type: "job",
        kind: STEP_KIND,
        payload: { kind: s.kind, id: s.id, step: s.step },
      });
      return false;
    }
    zip.finish();
    await parts.complete();
    if (s.step > 1) await env.FILES.delete(stateKey(s.id));
    await pruneOld(env.FILES, s);
    await slot.progress(s.id, progressOf(s, clock, "done"));
    await slot.complete(s.id, {
      result: {
        key: s.key,
        bytes: s.zip.offset,
        rows: s.done.rows,
        files: s.done.files,
        missing: s.done.missing,
      },
    });
    log("info", "backup.built", { kind: s.kind, key: s.key, bytes: s.zip.offset, steps: s.step });
    return true;
  } catch (err) {
    log("error", "backup.step_failed", { kind: s.kind, step: s.step, error: String(err) });
    await abandon(env, s);
    await slot.complete(s.id, { error: "The backup could not be written; try again." });
    return true;
  }
}

async function abandon(env: Env, s: BuildState) {
  if (s.upload)
    await env.FILES.resumeMultipartUpload(s.key, s.upload.id)
      .abort()
      .catch(() => undefined);
  await env.FILES.delete(stateKey(s.id)).catch(() => undefined);
}

/** Keeps the newest `keep` zips under the prune prefix (the daily backups; the last export). */
async function pruneOld(bucket: R2Bucket, s: BuildState) {
  if (!s.prune) return;
  const [prefix, keep] = [s.prune.split("|")[0]!, Number(s.prune.split("|")[1])];
  const listed = await bucket.list({ prefix, delimiter: "/" });
  const zips = listed.objects
    .map((o) => o.key)
    .filter((k) => k.endsWith(".zip"))
    .sort();
  const old = zips.slice(0, Math.max(0, zips.length - keep));
  if (old.length) await bucket.delete(old);
}

// ---------------------------------------------------------------------------------------------
// The job

export type BuildStart = { ok: true; job: SlotJob; finished: boolean } | { ok: false; job: SlotJob };

/**
 * Starts a build into `key` and runs its first step here (a small journal is done when this
 * returns). `prune`: "prefix|n" keeps the newest n zips under prefix. A build of the same kind
 * still running (and alive) answers `ok: false` with it.
 */
export async function startBuild(
  env: Env,
  clock: Clock,
  kind: BuildKind,
  key: (id: string) => string,
  prune: string | null,
  budget: StepBudget = STEP,
): Promise<BuildStart> {
  await buildStatus(env, clock, kind);
  const slot = jobSlot(env, kind);
  const res = await slot.start(kind, LEASE_MS);
  if (!res.ok) return { ok: false, job: res.job };
  const id = res.job.id;
  const s: BuildState = {
    id,
    kind,
    key: key(id),
    step: 0,
    tables: [],
    src: 0,
    after: "",
    n: 0,
    zip: newZipState(clock()),
    upload: null,
    totals: { rows: 0, files: 0 },
    counts: {},
    done: { rows: 0, files: 0, missing: 0 },
    prune,
  };
  await slot.progress(id, { phase: "counting", updated_at: clock().toISOString(), steps: 0 });
  const finished = await runStep(env, clock, s, new Uint8Array(0), budget);
  return { ok: true, job: (await slot.status()) ?? res.job, finished };
}

const StepPayload = z.object({
  kind: z.enum(["backup-export", "backup-daily"]),
  id: z.string(),
  step: z.number().int(),
});

/** The queue's "backup-step" job: the next step of a running build (a stale or repeated message is dropped). */
export async function runBuildStep(
  env: Env,
  msg: QueueMessage,
  clock: Clock = systemClock,
  budget: StepBudget = STEP,
): Promise<boolean> {
  const p = StepPayload.safeParse("payload" in msg ? msg.payload : null);
  if (!p.success) return true;
  const job = await jobSlot(env, p.data.kind).status();
  if (!job || job.id !== p.data.id || job.status !== "running") return true;
  const loaded = await loadState(env.FILES, p.data.id);
  // A redelivered message whose step already ran: the state has moved on (its own message follows).
  if (!loaded || loaded.s.step !== p.data.step) return true;
  return runStep(env, clock, loaded.s, loaded.carry, budget);
}

/** The build's job as a status read sees it: a build with no step for STALE_MS is failed here. */
export async function buildStatus(env: Env, clock: Clock, kind: BuildKind): Promise<SlotJob | null> {
  const slot = jobSlot(env, kind);
  const job = await slot.status();
  if (job?.status !== "running") return job;
  const last = Date.parse(String(job.progress.updated_at ?? job.started_at));
  if (clock().getTime() - last <= STALE_MS) return job;
  const loaded = await loadState(env.FILES, job.id).catch(() => null);
  if (loaded) await abandon(env, loaded.s);
  return (
    (await slot.complete(job.id, {
      error: "The backup stopped making progress and was abandoned; start it again.",
    })) ?? job
  );
}

// ---------------------------------------------------------------------------------------------
// The person's export (GET /data/export beyond DIRECT_LIMITS, and the dashboard's Backup page)

/** The latest export build, as the API returns it. */
export function buildView(job: SlotJob | null) {
  const num = (v: unknown) => (typeof v === "number" ? v : 0);
  if (!job)
    return {
      status: "idle" as const,
      job_id: null,
      started_at: null,
      finished_at: null,
      phase: null,
      rows_done: 0,
      rows_total: 0,
      files_done: 0,
      files_total: 0,
      bytes: 0,
      steps: 0,
      error: null,
      download_url: null,
    };
  const p = job.progress;
  const status = job.status === "running" ? "running" : job.status === "failed" ? "error" : "done";
  return {
    status: status as "running" | "error" | "done",
    job_id: job.id,
    started_at: job.started_at,
    finished_at: job.finished_at,
    phase: typeof p.phase === "string" ? p.phase : null,
    rows_done: num(p.rows_done),
    rows_total: num(p.rows_total),
    files_done: num(p.files_done),
    files_total: num(p.files_total),
    bytes: num(p.bytes),
    steps: num(p.steps),
    error: job.error,
    download_url: status === "done" ? `/api/v1/data/export/jobs/${job.id}/file` : null,
  };
}

/** Starts the person's export build (the previous export zip is removed once this one is done). */
export async function startExport(env: Env, clock: Clock, budget: StepBudget = STEP) {
  const res = await startBuild(env, clock, "backup-export", exportKey, "exports/|1", budget);
  return { started: res.ok, view: buildView(res.job) };
}

export async function exportStatus(env: Env, clock: Clock) {
  return buildView(await buildStatus(env, clock, "backup-export"));
}

/** The finished export's zip (null when that build is not the latest done one, or its zip is gone). */
export async function builtExport(env: Env, id: string) {
  const job = await jobSlot(env, "backup-export").status();
  if (!job || job.id !== id || job.status !== "done") return null;
  const obj = await env.FILES.get(exportKey(id));
  return obj ? { obj, started_at: job.started_at } : null;
}

/** True when the journal is small enough to stream its zip in one request (a failed count: try it). */
export async function fitsOneRequest(d1: D1Database): Promise<boolean> {
  const size = await exportSize(d1).catch(() => null);
  return !size || (size.rows <= DIRECT_LIMITS.rows && size.files <= DIRECT_LIMITS.files);
}
