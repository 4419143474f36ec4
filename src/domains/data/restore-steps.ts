/**
 * A restore's files in bounded steps: each restored file is an R2 write (and a check for
 * an older-style email), so a backup with many files would pass the Workers per-invocation budget.
 * The commit checks every file (its rows depend on the verdicts) but writes only the first
 * FILES_PER_STEP; when more are left it keeps the zip under restores/<token>.zip, and queue
 * messages ("restore-files-step") each write the next FILES_PER_STEP, re-reading the stored zip
 * and inflating only that window's entries (backup-read.ts). Progress lives in the single-slot
 * Durable Object; GET /data/import/files/current returns it.
 */
import { z } from "zod";
import type { Env } from "../../env";
import type { QueueMessage } from "../../jobs/messages";
import { jobSlot, runView, steppedRun } from "../../db/job-slot";
import type { SlotJob } from "../../db/job-slot-state";
import {
  afterStep,
  progressNum,
  queuedJob,
  runJobStep,
  type StepDone,
  type StepRun,
} from "../../db/step-runner";
import type { Clock } from "../../lib/clock";
import { conflict } from "../../lib/errors";
import { type FileSink, parseBackup } from "./backup-read";

const RESTORE_FILES_KIND = "restore-files";
export const RESTORE_STEP_KIND = "restore-files-step";
/** Files one invocation writes (≤ 2 R2 operations each: under half of the Paid plan's 1,000). */
export const FILES_PER_STEP = 200;
const keptKey = (token: string) => `restores/${token}.zip`;

const Payload = z.object({
  id: z.string(),
  token: z.string().regex(/^imp_[0-9a-f]{32}$/),
  from: z.number().int(),
});

/** Writes one file under its derived key (an older-style email name only when absent). */
const put =
  (env: Env): FileSink =>
  async (key, bytes, contentType, onlyIfAbsent) => {
    if (onlyIfAbsent && (await env.FILES.head(key))) return;
    await env.FILES.put(key, bytes, { httpMetadata: { contentType } });
  };

/**
 * The commit's sink: files up to `limit` are written at once, later ones counted (written by the
 * steps). `later` is how many were left for them.
 */
export function firstFiles(env: Env, limit = FILES_PER_STEP) {
  const write = put(env);
  const out = {
    written: 0,
    later: 0,
    /** One past the place of the last file to write (the steps' end). */
    end: 0,
    sink: (async (key, bytes, type, onlyIfAbsent, seq) => {
      out.end = Math.max(out.end, seq + 1);
      if (seq >= limit) {
        out.later++;
        return;
      }
      out.written++;
      await write(key, bytes, type, onlyIfAbsent, seq);
    }) as FileSink,
  };
  return out;
}

/** Refuses a commit that would leave files to the steps while another restore's files are still written. */
export async function assertNoFilesRunning(env: Env, clock: Clock) {
  const now = await restoreFilesStatus(env, clock);
  if (now.status === "running")
    throw conflict(
      "Nothing was restored: the files of the previous restore are still being written; try again when it is done.",
      "CONFLICT",
    );
}

const RUN: StepRun = {
  kind: RESTORE_FILES_KIND,
  stepKind: RESTORE_STEP_KIND,
  event: "restore_files.step_failed",
  failure: "Writing the restored files stopped on an error; restore the backup again to put them back.",
};

/**
 * After the rows' swap: keeps the staged zip under our own key and queues the first step. The
 * staged object is moved (read and written once more), so the 15-minute preview cleanup never
 * removes a zip a step still reads.
 */
export async function queueLaterFiles(
  env: Env,
  clock: Clock,
  staged: string,
  token: string,
  counts: { written: number; later: number; end: number; limit?: number },
) {
  const obj = await env.FILES.get(staged);
  if (!obj) throw new Error("the staged backup vanished before its files were written");
  await env.FILES.put(keptKey(token), obj.body);
  const slot = jobSlot(env, RESTORE_FILES_KIND);
  const { job } = await slot.start(RESTORE_FILES_KIND, 24 * 60 * 60 * 1000);
  const from = counts.limit ?? FILES_PER_STEP;
  await afterStep(env, clock, RUN, job.id, {
    progress: {
      files_done: counts.written,
      files_total: counts.written + counts.later,
      from,
      end: counts.end,
    },
    next: { id: job.id, token, from },
  });
  return view(await slot.status());
}

/** The queue's "restore-files-step": the next window of files (a stale or redelivered message is dropped). */
export async function runRestoreFilesStep(
  env: Env,
  msg: QueueMessage,
  clock: Clock,
  limit = FILES_PER_STEP,
): Promise<boolean> {
  const queued = await queuedJob(env, msg, Payload, () => RESTORE_FILES_KIND);
  if (!queued || queued.job.progress.from !== queued.p.from) return true;
  const { job, p } = queued;
  const { token, from } = p;
  const kept = keptKey(token);
  return runJobStep(
    env,
    clock,
    { ...RUN, cleanup: () => env.FILES.delete(kept) },
    job.id,
    async (): Promise<StepDone> => {
      const obj = await env.FILES.get(kept);
      if (!obj) throw new Error("the kept backup zip is gone");
      const write = put(env);
      let written = 0;
      const sink: FileSink = async (...file) => {
        written++;
        await write(...file);
      };
      // Only this window's entries are inflated and checked.
      const next = from + limit;
      await parseBackup(obj.body, sink, { from, to: next });
      const done = progressNum(job, "files_done") + written;
      if (next < progressNum(job, "end"))
        return { progress: { files_done: done, from: next }, next: { ...p, from: next } };
      await env.FILES.delete(kept);
      return { progress: { files_done: done }, result: { files_done: done } };
    },
  );
}

function view(job: SlotJob | null) {
  return {
    ...runView(job),
    files_done: progressNum(job, "files_done"),
    files_total: progressNum(job, "files_total"),
  };
}

/** The latest run of restored files: running (done of total), done, error, or idle. */
export async function restoreFilesStatus(env: Env, clock: Clock) {
  const stalled = "Writing the restored files stopped making progress.";
  return view((await steppedRun(env, RESTORE_FILES_KIND, clock(), stalled)).job);
}
