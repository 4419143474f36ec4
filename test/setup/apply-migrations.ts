import { applyD1Migrations, env, reset } from "cloudflare:test";
import { afterEach, vi } from "vitest";
import { clearEmbeddingMemory } from "../../src/categorize/fuzzy";
import { invalidateResolverCache } from "../../src/categorize/resolver";
import { clearAveragesCache } from "../../src/domains/budget/averages";
import { invalidateSettings } from "../../src/domains/config/service";
import { INSIGHTS_KIND } from "../../src/domains/insights/service";
import { SUMMARIES_KIND } from "../../src/domains/journal/summaries";
import { DEMO_KIND } from "../../src/domains/system/demo-steps";
import { jobSlot } from "../../src/db/job-slot";
import { installLimits, takeBreaches, unlimitedDB } from "../helpers/limits";

// Runs before every integration test file. The project runs with `isolate: false` (vitest.config.ts):
// the files of one pool worker share one workerd and one module graph instead of starting both
// per file (~4 s of CPU each), so each file starts here from a clean slate, as if it had its own:
// - storage: reset() deletes every D1 database, R2 bucket, KV namespace and Durable Object the
//   previous file left (checked: an object still alive right after the previous file can outlive
//   the first reset), then migrations/ (never a re-typed schema) are applied to the empty D1;
// - the app's in-isolate caches (config, category resolver, embeddings, budget averages);
// - the job slots: a live slot object can outlive reset() with a job the previous file started and
//   never ran (its queue caught), so a running job is ended here (else this file's start is a 409);
// - timers and stubbed globals/env a file might have left behind;
// - Cloudflare's production limits (test/helpers/limits.ts): env.DB, env.JOBS and env.OAUTH_KV are
//   wrapped once per workerd, and a test that breached a limit fails after it ends, with the limit
//   named, even when the code under test caught the error.
vi.useRealTimers();
vi.unstubAllGlobals();
vi.unstubAllEnvs();

async function leftovers(): Promise<string[]> {
  const [files, keys, tables] = await Promise.all([
    env.FILES.list({ limit: 1 }),
    env.OAUTH_KV?.list({ limit: 1 }) ?? { keys: [] },
    env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' LIMIT 1",
    ).all<{ name: string }>(),
  ]);
  return [
    ...files.objects.map((o) => `R2 ${o.key}`),
    ...keys.keys.map((k) => `KV ${k.name}`),
    ...tables.results.map((t) => `D1 ${t.name}`),
  ];
}

installLimits(env);
takeBreaches();
afterEach(() => {
  const found = takeBreaches();
  if (found.length > 0) {
    throw new Error(
      `Cloudflare production limit exceeded:\n${found.map((b) => `  ${b.limit}: ${b.value} > ${b.max} (${b.what})`).join("\n")}`,
    );
  }
});

for (let attempt = 1; ; attempt++) {
  await reset();
  const left = await leftovers();
  if (left.length === 0) break;
  if (attempt === 5) throw new Error(`storage not empty after ${attempt} resets: ${left.join(", ")}`);
}
invalidateSettings();
await invalidateResolverCache();
clearEmbeddingMemory();
clearAveragesCache();
// The real binding: applyD1Migrations takes no wrapper (wrangler applies these files deployed).
await applyD1Migrations(unlimitedDB(), env.TEST_MIGRATIONS);
for (const kind of [SUMMARIES_KIND, INSIGHTS_KIND, DEMO_KIND]) {
  const slot = jobSlot(env, kind);
  const job = await slot.status();
  if (job?.status === "running") await slot.complete(job.id, { error: "ended between test files" });
}
