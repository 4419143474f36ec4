import type { TestProject } from "vitest/node";
import { ensureAssetsFolder } from "../../scripts/lib/dashboard.mjs";
import { serversNeeded } from "../../scripts/lib/test-needs.mjs";
import { setupImap } from "./global-imap";
import { setupModel } from "./global-model";

// The integration project's globalSetup (Node side, once before the workerd pool starts; the unit
// project has none). wrangler needs the dashboard's assets folder, not a fresh build. The real
// servers the tests talk to over loopback start only when a test file of this run injects them
// (Dovecot IMAP: `inject("imap")`, the fake model server: `inject("modelServer")`); watch mode
// starts both, since later reruns may pick any file.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureAssetsFolder();
  const needed = project.globalConfig.watch
    ? new Set(["imap", "modelServer"])
    : await serversOfThisRun(project);
  const teardowns: (() => Promise<void>)[] = [];
  try {
    if (needed.has("imap")) teardowns.push(await setupImap(project));
    if (needed.has("modelServer")) teardowns.push(await setupModel(project));
  } catch (err) {
    for (const t of teardowns.reverse()) await t();
    throw err;
  }
  return async () => {
    for (const t of teardowns.reverse()) await t();
  };
}

/** The servers the test files selected for this run need (all files when none were named). */
async function serversOfThisRun(project: TestProject): Promise<Set<string>> {
  // vitest keeps the command line's file filters on the instance (not a typed API): without them,
  // or if a future vitest drops the field, every file of the project counts.
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  const { testFiles } = await project.globTestFiles(filters);
  return serversNeeded(testFiles);
}
