import type { TestProject } from "vitest/node";
import { ensureDashboardDist } from "../../scripts/lib/dashboard.mjs";
import { setupImap } from "./global-imap";
import { setupModel } from "./global-model";

// Runs once on the Node side before the workerd pool starts: the dashboard assets folder, and the
// real servers the tests talk to over loopback (Dovecot IMAP, the fake model server).
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureDashboardDist();
  const teardowns = [await setupImap(project), await setupModel(project)];
  return async () => {
    for (const t of teardowns.reverse()) await t();
  };
}
