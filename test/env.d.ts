import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../src/env";
import type { AlertCorpora, TidingsFiles } from "../scripts/lib/corpora.mjs";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      TEST_MIGRATION_HISTORY: D1Migration[];
      TEST_ALERT_CORPORA: AlertCorpora;
      TEST_TIDINGS: TidingsFiles;
    }
  }
}
