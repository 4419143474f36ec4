import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// `npm run bench:trips`: D1 round trips per write request, inside workerd with local D1/R2.
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
          BENCH_VERBOSE: process.env.VERBOSE ?? "",
        },
      },
    })),
  ],
  test: {
    include: ["bench/d1-trips.ts"],
    setupFiles: ["./test/setup/apply-migrations.ts"],
    globalSetup: ["./test/setup/global.ts"],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
