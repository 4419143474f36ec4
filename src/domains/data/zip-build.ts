/**
 * A zip built in bounded steps, whatever goes into it: the backup (export-steps.ts) and
 * the tax pack (domains/tax/export-steps.ts) each say what one step writes; this module runs the
 * steps. The first step runs in the invocation that starts the build, each next one is a queue
 * message (the build's own kind). What the next step needs rides in one R2 object (the build's
 * state as JSON, then the zip bytes under one upload part); the zip goes into an R2 multipart
 * upload in PART-sized parts. The job's JobSlot (one per build kind) holds the progress a status
 * route returns, and the finished zip's key.
 */
import { z } from "zod";
import type { Env } from "../../env";
import type { QueueMessage } from "../../jobs/messages";
import { jobSlot, runView, steppedRun } from "../../db/job-slot";
import type { Json, Scalar, SlotJob } from "../../db/job-slot-state";
import { progressNum, queuedJob, runJobStep, type StepDone } from "../../db/step-runner";
import type { Clock } from "../../lib/clock";
import { log } from "../../lib/log";
import { newZipState, SteppedZip, type ZipState } from "../../lib/zip-steps";

/** R2 multipart parts (every part but the last the same size, at least 5 MiB). */
const PART = 8 * 1024 * 1024;
const LEASE_MS = 24 * 60 * 60 * 1000;

const stateKey = (id: string) => `exports/steps/${id}`;

/** What every build's state holds (each build adds its own cursor). */
export interface ZipBuild {
  id: string;
  /** The JobSlot kind (one running build per kind). */
  kind: string;
  /** The finished zip's R2 key. */
  key: string;
  step: number;
  zip: ZipState;
  upload: { id: string; parts: R2UploadedPart[] } | null;
}

/** One kind of build: what its steps write and what its job reports. */
export interface ZipBuildSpec<S extends ZipBuild> {
  /** The queue message kind of its next steps. */
  stepKind: string;
  /** The log events' prefix. */
  name: string;
  /** The job's error when a step fails. */
  failure: string;
  /** Writes on until the budget is spent (false) or everything is written (true). */
  work(env: Env, clock: Clock, s: S, zip: SteppedZip, parts: ZipSink): Promise<boolean>;
  /** The job's progress (`phase` "done" once the zip is complete). */
  progress(s: S, done: boolean): Record<string, Scalar>;
  /** The finished job's result. */
  result(s: S): Json;
  /** After the zip is complete (e.g. older zips pruned). */
  finished?(env: Env, s: S): Promise<void>;
}

/** Where a build's bytes go: `push` as they are made, `drain` writes out what it may. */
export interface ZipSink {
  push(b: Uint8Array): void;
  drain(): Promise<void>;
}

/** The zip's bytes: whole parts go up as they fill, the rest rides to the next step in the state object. */
export class Parts implements ZipSink {
  private chunks: Uint8Array[] = [];
  private size = 0;
  constructor(
    private readonly bucket: R2Bucket,
    private readonly s: ZipBuild,
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

/** A stored file's body into the open entry, chunk by chunk (whole parts go up as they fill). */
export async function addBody(zip: SteppedZip, parts: ZipSink, body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    zip.add(value);
    await parts.drain();
  }
}

async function saveState(bucket: R2Bucket, s: ZipBuild, carry: Uint8Array) {
  const json = new TextEncoder().encode(JSON.stringify(s));
  const out = new Uint8Array(4 + json.length + carry.length);
  new DataView(out.buffer).setUint32(0, json.length);
  out.set(json, 4);
  out.set(carry, 4 + json.length);
  await bucket.put(stateKey(s.id), out);
}

async function loadState<S extends ZipBuild>(bucket: R2Bucket, id: string) {
  const obj = await bucket.get(stateKey(id));
  if (!obj) return null;
  const bytes = new Uint8Array(await obj.arrayBuffer());
  const len = new DataView(bytes.buffer).getUint32(0);
  const s = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + len))) as S;
  return { s, carry: bytes.subarray(4 + len) };
}

async function abandon(env: Env, s: ZipBuild) {
  if (s.upload)
    await env.FILES.resumeMultipartUpload(s.key, s.upload.id)
      .abort()
      .catch(() => undefined);
  await env.FILES.delete(stateKey(s.id)).catch(() => undefined);
}

/**
 * Runs one step of the build: on to the budget, then either the next step queued (the state saved)
 * or the archive completed and the job done. Never throws: a failure ends the job with its reason.
 */
function runStep<S extends ZipBuild>(env: Env, clock: Clock, spec: ZipBuildSpec<S>, s: S, carry: Uint8Array) {
  const run = {
    kind: s.kind,
    stepKind: spec.stepKind,
    event: `${spec.name}.step_failed`,
    failure: spec.failure,
    cleanup: () => abandon(env, s),
  };
  const step = async (): Promise<StepDone> => {
    const parts = new Parts(env.FILES, s, carry);
    const zip = new SteppedZip(s.zip, parts.push);
    s.step++;
    if (!(await spec.work(env, clock, s, zip, parts))) {
      zip.suspend();
      await parts.drain();
      await saveState(env.FILES, s, parts.rest());
      return {
        progress: { ...spec.progress(s, false), steps: s.step },
        next: { kind: s.kind, id: s.id, step: s.step },
      };
    }
    zip.finish();
    await parts.complete();
    if (s.step > 1) await env.FILES.delete(stateKey(s.id));
    await spec.finished?.(env, s);
    log("info", `${spec.name}.built`, { kind: s.kind, key: s.key, bytes: s.zip.offset, steps: s.step });
    return { progress: { ...spec.progress(s, true), steps: s.step }, result: spec.result(s) };
  };
  return runJobStep(env, clock, run, s.id, step);
}

/**
 * A build's work run in one go into a response stream (the direct answer: no job, no R2 object);
 * `spec`'s budget must be unbounded. A failure aborts the stream (never a truncated zip as whole).
 */
export async function streamZip<S extends ZipBuild>(
  env: Env,
  clock: Clock,
  spec: ZipBuildSpec<S>,
  init: Omit<S, keyof ZipBuild>,
  writable: WritableStream<Uint8Array>,
): Promise<S> {
  const writer = writable.getWriter();
  const held: Uint8Array[] = [];
  const sink: ZipSink = {
    push: (b) => void held.push(b),
    async drain() {
      while (held.length) {
        await writer.ready;
        await writer.write(held.shift()!);
      }
    },
  };
  const s = { ...init, id: "", kind: "", key: "", step: 1, zip: newZipState(clock()), upload: null } as S;
  try {
    const zip = new SteppedZip(s.zip, sink.push);
    if (!(await spec.work(env, clock, s, zip, sink))) throw new Error(`${spec.name}: the budget ran out`);
    zip.finish();
    await sink.drain();
    await writer.close();
    return s;
  } catch (err) {
    await writer.abort(err).catch(() => undefined);
    throw err;
  }
}

type BuildStart = { ok: true; job: SlotJob; finished: boolean } | { ok: false; job: SlotJob };

/**
 * Starts a build of `kind` and runs its first step here (a small one is done when this returns).
 * `init` makes the state from the job's id (its base fields are filled in here). A build of the
 * same kind still running (and alive) answers `ok: false` with it.
 */
export async function startZipBuild<S extends ZipBuild>(
  env: Env,
  clock: Clock,
  spec: ZipBuildSpec<S>,
  kind: string,
  init: (id: string) => Omit<S, keyof ZipBuild> & { key: string },
): Promise<BuildStart> {
  await zipBuildStatus(env, clock, kind);
  const slot = jobSlot(env, kind);
  const res = await slot.start(kind, LEASE_MS);
  if (!res.ok) return { ok: false, job: res.job };
  const id = res.job.id;
  const s = { ...init(id), id, kind, step: 0, zip: newZipState(clock()), upload: null } as S;
  await slot.progress(id, { phase: "counting", updated_at: clock().toISOString(), steps: 0 });
  await runStep(env, clock, spec, s, new Uint8Array(0));
  const job = (await slot.status()) ?? res.job;
  return { ok: true, job, finished: job.status !== "running" };
}

/** A queued step of a running build of one of `kinds` (a stale or repeated message is dropped). */
export async function continueZipBuild<S extends ZipBuild>(
  env: Env,
  clock: Clock,
  spec: ZipBuildSpec<S>,
  kinds: readonly string[],
  msg: QueueMessage,
): Promise<boolean> {
  const payload = z.object({
    kind: z.string().refine((k) => kinds.includes(k)),
    id: z.string(),
    step: z.int(),
  });
  const queued = await queuedJob(env, msg, payload, (p) => p.kind);
  if (!queued) return true;
  const loaded = await loadState<S>(env.FILES, queued.p.id);
  // A redelivered message whose step already ran: the state has moved on (its own message follows).
  if (!loaded || loaded.s.step !== queued.p.step) return true;
  return runStep(env, clock, spec, loaded.s, loaded.carry);
}

/** The build's job as a status read sees it: a build with no step for 15 minutes is failed here. */
export async function zipBuildStatus(env: Env, clock: Clock, kind: string): Promise<SlotJob | null> {
  const stalled = "The build stopped making progress and was abandoned; start it again.";
  const drop = async (job: SlotJob) => {
    const loaded = await loadState(env.FILES, job.id).catch(() => null);
    if (loaded) await abandon(env, loaded.s);
  };
  return (await steppedRun(env, kind, clock(), stalled, { onStale: drop })).job;
}

/** The status fields every build's view has (each build's schema extends them with its counters). */
export const ZipBuildFields = z.object({
  status: z.enum(["idle", "running", "done", "error"]),
  job_id: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  phase: z.string().nullable(),
  bytes: z.number().int().meta({ description: "Zip bytes written so far" }),
  steps: z.number().int(),
  error: z.string().nullable(),
  download_url: z.string().nullable().meta({ description: "Where the finished zip downloads (done only)" }),
});

/** The common part of a build's status view (each build adds its own counters). */
export function zipBuildView(job: SlotJob | null, downloadUrl: (id: string) => string) {
  const { task_id, ...run } = runView(job);
  const num = (k: string) => progressNum(job, k);
  const phase = job?.progress.phase;
  const view = {
    ...run,
    job_id: task_id,
    phase: typeof phase === "string" ? phase : null,
    bytes: num("bytes"),
    steps: num("steps"),
    download_url: job && run.status === "done" ? downloadUrl(job.id) : null,
  };
  return { view, num };
}

/** The finished build's zip (null when that build is not the latest done one of its kind, or its zip is gone). */
export async function builtZip(env: Env, kind: string, id: string, key: (id: string) => string) {
  const job = await jobSlot(env, kind).status();
  if (!job || job.id !== id || job.status !== "done") return null;
  const obj = await env.FILES.get(key(id));
  return obj ? { obj, job } : null;
}
