import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// `npx vitest run -c bench/statements.config.ts`: the statement parse + reconcile bench inside workerd with local D1/R2.
const root = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");

export default defineConfig({
  root,
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: `${root}/wrangler.toml` },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(`${root}/migrations`),
          IMAP_HOST: "",
          MODEL_API_KEY: "",
          BENCH_COUNT: process.env.BENCH_COUNT ?? "100000",
        },
      },
    })),
  ],
  test: {
    include: ["bench/statements.ts"],
    setupFiles: ["./test/setup/apply-migrations.ts"],
    globalSetup: ["./test/setup/global.ts", "./bench/lib/cpu-probe.mjs"],
    testTimeout: 30 * 60_000,
    hookTimeout: 60_000,
  },
});
