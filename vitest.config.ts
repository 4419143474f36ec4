import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defaultExclude, defineConfig } from "vitest/config";
import { readAlertCorpora, readTidings } from "./scripts/lib/corpora.mjs";

// Two projects, one run (`npm test` and `vitest run` run both; `--project unit` picks one):
// - unit: pure code in plain Node, no servers, no bindings (seconds instead of a minute in workerd);
// - integration: inside workerd with the real bindings of wrangler.toml (D1, R2, Queue, DO), the
//   throwaway Dovecot and the fake model server of test/setup/global.ts.
// A unit test that needs the Workers runtime (it imports `cloudflare:test`, or code that imports
// `cloudflare:*` at run time) is named `*.workers.test.ts` and runs in the integration project.
const WORKERD_UNIT = ["test/unit/**/*.workers.test.ts"];

export default defineConfig({
  test: {
    // Integration files spend most of their time starting workerd and waiting on storage, not on
    // the CPU: three at once on two cores is much faster than two, and leaves the model-timeout
    // tests (2 s budgets) the headroom that four did not always leave.
    maxWorkers: 3,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // One coverage report over both projects (istanbul instruments in Node and in workerd alike).
    coverage: {
      provider: "istanbul",
      include: ["src/**/*.ts"],
      reporter: ["text-summary", "json-summary", "html"],
      reportsDirectory: "coverage",
      thresholds: { lines: 90, statements: 90 },
    },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          // Pure code, no vi.mock and no globals (our rule: no mocks of our own code), so the files
          // can share workers: half the CPU time of a fresh worker per file.
          isolate: false,
          include: ["test/unit/**/*.test.ts"],
          exclude: [...defaultExclude, ...WORKERD_UNIT],
        },
      },
      {
        extends: true,
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              // wrangler.toml's flags, plus a test-only one: with coverage on, the pool's websocket
              // carries each file's Istanbul counters for the whole app, past workerd's default
              // 1 MiB message limit ("Message is too large"). Local only, never deployed.
              compatibilityFlags: ["nodejs_compat", "increase_websocket_message_size"],
              // The OAuth provider's store (also in wrangler.toml): real KV, isolated per test file.
              kvNamespaces: ["OAUTH_KV"],
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations("./migrations"),
                // The first texts of migrations edited after they were committed (0001, 0014): the
                // schema-upgrade test replays the history a deployed journal really went through.
                TEST_MIGRATION_HISTORY: await readD1Migrations("./test/fixtures/migration-history"),
                // The real alerts of ../shared/corpora (never committed here), null where absent.
                TEST_ALERT_CORPORA: readAlertCorpora(),
                // Tidings' reference data of ../shared/reference/tidings (never committed here), null where absent.
                TEST_TIDINGS: readTidings(),
                // Tests never reach a hosted provider or a real mailbox unless a test sets them.
                IMAP_HOST: "",
                MODEL_API_KEY: "",
              },
            },
          })),
        ],
        test: {
          name: "integration",
          // One workerd and one module graph per vitest worker, reused by its files: a fresh workerd
          // per file (the default) cost ~4 s of CPU each, most of the integration run. Each file
          // still starts from empty storage and freshly applied migrations/ (apply-migrations.ts
          // resets D1, R2, KV and Durable Objects and the app's isolate caches).
          isolate: false,
          // The two sweeps guard issue 24's "every write <= 3, every read <= 2 D1 round trips" and
          // that every operation of openapi.json is driven (bench/roundtrips-sweep.ts, -reads.ts).
          include: [
            "test/integration/**/*.test.ts",
            ...WORKERD_UNIT,
            "bench/roundtrips-sweep.ts",
            "bench/roundtrips-reads.ts",
          ],
          setupFiles: ["./test/setup/apply-migrations.ts"],
          globalSetup: ["./test/setup/global.ts"],
        },
      },
    ],
  },
});
