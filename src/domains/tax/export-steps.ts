/**
 * The tax pack zip (zip.ts plans its entries): up to DIRECT_FILES evidence files it streams in the
 * request (writeTaxZip); past it, the shared stepped zip build (data/zip-build.ts) writes the CSVs
 * and the first files in the request, each next step ("tax-pack-step") a queue message within
 * TAX_STEP (each well under half of the Workers Paid per-invocation limits: a receipt is one R2
 * read, an email text one D1 query).
 */
import type { Env } from "../../env";
import type { QueueMessage } from "../../jobs/messages";
import type { SlotJob } from "../../db/job-slot-state";
import { type Clock, systemClock } from "../../lib/clock";
import {
  addBody,
  builtZip,
  continueZipBuild,
  startZipBuild,
  streamZip,
  type ZipBuild,
  type ZipBuildSpec,
  zipBuildStatus,
  zipBuildView,
} from "../data/zip-build";
import { exportName, zipSources } from "./export";
import { openEvidence, type PackFile, type PackFiles, type ZipSources } from "./zip";

export const TAX_STEP_KIND = "tax-pack-step";
const KIND = "tax-export";

/** One step's budget (Workers Paid: 1,000 D1 queries and 1,000 operations an invocation). */
const TAX_STEP = { files: 200, bytes: 96 * 1024 * 1024, ms: 10_000 };
type TaxStepBudget = typeof TAX_STEP;
const UNBOUNDED: TaxStepBudget = { files: Infinity, bytes: Infinity, ms: Infinity };

/** Up to this many evidence files (receipts and email texts) the zip streams in the request itself. */
export const DIRECT_FILES = 200;

const packKey = (id: string) => `exports/tax/${id}.zip`;

interface TaxBuild extends ZipBuild {
  year: number;
  /** The CSVs, written by the first step (then dropped from the state). */
  texts: [string, string][];
  files: PackFile[];
  /** The next file's index. */
  next: number;
  missing: number;
}

const taxSpec = (budget: TaxStepBudget, sources?: ZipSources): ZipBuildSpec<TaxBuild> => ({
  stepKind: TAX_STEP_KIND,
  name: "tax_pack",
  failure: "The tax pack could not be written; try again.",
  async work(env, _clock, s, zip, parts) {
    for (const [name, text] of s.texts) {
      zip.begin(name);
      zip.add(text);
      zip.end();
    }
    s.texts = [];
    const src = sources ?? zipSources(env);
    const start = Date.now();
    const begun = zip.state.offset;
    let read = 0;
    while (s.next < s.files.length) {
      if (read >= budget.files || zip.state.offset - begun >= budget.bytes || Date.now() - start >= budget.ms)
        return false;
      const f = s.files[s.next]!;
      read++;
      const body = await openEvidence(src, f);
      if (body === null) s.missing++;
      else if (typeof body === "string") {
        zip.begin(f.path);
        zip.add(body);
        zip.end();
      } else {
        zip.begin(f.path, 0);
        await addBody(zip, parts, body);
        zip.end();
      }
      s.next++;
    }
    return true;
  },
  progress: (s, done) => ({
    phase: done ? "done" : "files",
    year: s.year,
    files_done: s.next,
    files_total: s.files.length,
    missing: s.missing,
    bytes: s.zip.offset,
  }),
  result: (s) => ({
    key: s.key,
    year: s.year,
    bytes: s.zip.offset,
    files: s.next - s.missing,
    missing: s.missing,
  }),
  // Only the latest pack is kept (the slot names only the latest build).
  async finished(env, s) {
    const listed = await env.FILES.list({ prefix: "exports/tax/" });
    const old = listed.objects.map((o) => o.key).filter((k) => k !== s.key);
    if (old.length) await env.FILES.delete(old);
  },
});

/** The latest tax pack build, as the API returns it. */
export function taxBuildView(job: SlotJob | null) {
  const { view, num } = zipBuildView(job, (id) => `/api/v1/tax-pack/export/jobs/${id}/file`);
  return {
    ...view,
    year: num("year") || null,
    files_done: num("files_done"),
    files_total: num("files_total"),
    missing: num("missing"),
  };
}

/** Starts the year's pack build and runs its first step here (ok false: another build is running). */
export async function startTaxBuild(
  env: Env,
  clock: Clock,
  year: number,
  pack: PackFiles,
  budget: TaxStepBudget = TAX_STEP,
) {
  const res = await startZipBuild(env, clock, taxSpec(budget), KIND, (id) => ({
    key: packKey(id),
    ...fresh(year, pack),
  }));
  return { started: res.ok, view: taxBuildView(res.job) };
}

const fresh = (year: number, pack: PackFiles) => ({
  year,
  texts: pack.texts,
  files: pack.files,
  next: 0,
  missing: 0,
});

/** The pack streamed into `writable` in one go (up to DIRECT_FILES; `src`: where the evidence comes from). */
export async function writeTaxZip(
  env: Env,
  clock: Clock,
  { year, pack, src = zipSources(env) }: { year: number; pack: PackFiles; src?: ZipSources },
  writable: WritableStream<Uint8Array>,
) {
  await streamZip(env, clock, taxSpec(UNBOUNDED, src), fresh(year, pack), writable);
}

/** The queue's "tax-pack-step" job. */
export const runTaxBuildStep = (
  env: Env,
  msg: QueueMessage,
  clock: Clock = systemClock,
  budget: TaxStepBudget = TAX_STEP,
) => continueZipBuild(env, clock, taxSpec(budget), [KIND], msg);

export async function taxBuildStatus(env: Env, clock: Clock) {
  return taxBuildView(await zipBuildStatus(env, clock, KIND));
}

/** The finished pack's zip and its name (null when that build is not the latest done one). */
export async function builtTaxPack(env: Env, id: string) {
  const built = await builtZip(env, KIND, id, packKey);
  return built ? { obj: built.obj, filename: exportName(Number(built.job.progress.year)) } : null;
}
