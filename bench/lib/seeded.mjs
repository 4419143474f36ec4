// A wrangler dev server over the 100,000-row seed (bench/lib/seed-large.mjs), for the benches and
// the response-hash check.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { wranglerBin } from "../../scripts/lib/wrangler.mjs";
import { writeLargeSeed } from "./seed-large.mjs";
import { startServer } from "./server.mjs";

export async function startSeeded() {
  return startServer({
    prepare: (state) => {
      const file = join(state, "large.sql");
      const seeded = writeLargeSeed(file);
      const t0 = performance.now();
      const r = spawnSync(
        wranglerBin,
        ["d1", "execute", "DB", "--local", "--persist-to", state, "--file", file],
        { stdio: "ignore" },
      );
      if (r.status !== 0) throw new Error("seeding failed");
      console.log(`seeded ${seeded} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    },
  });
}
