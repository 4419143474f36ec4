import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Tests run inside workerd with the real bindings declared in wrangler.toml (D1, R2, Queue, DO).
// Storage is isolated per test file; test/setup/apply-migrations.ts applies migrations/ first.
export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations("./migrations"),
          // Tests never reach a hosted provider or a real mailbox unless a test sets them.
          IMAP_HOST: "",
          MODEL_API_KEY: "",
        },
      },
    })),
  ],
  test: {
    include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
    setupFiles: ["./test/setup/apply-migrations.ts"],
    globalSetup: ["./test/setup/global.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    coverage: {
      provider: "istanbul",
      include: ["src/**/*.ts"],
      reporter: ["text-summary", "json-summary", "html"],
      reportsDirectory: "coverage",
      thresholds: { lines: 90, statements: 90 },
    },
  },
});
