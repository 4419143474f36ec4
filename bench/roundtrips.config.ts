import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// `npm run bench:roundtrips`: D1 round trips per request inside workerd (bench/roundtrips.ts: reads,
// the alert email, the statement import; bench/roundtrips-writes.ts: the main write routes).
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
          TRIPS: process.env.TRIPS ?? "",
        },
      },
    })),
  ],
  test: {
    include: ["bench/roundtrips.ts", "bench/roundtrips-writes.ts"],
    setupFiles: ["./test/setup/apply-migrations.ts"],
    globalSetup: ["./test/setup/global.ts"],
    testTimeout: 5 * 60_000,
    hookTimeout: 60_000,
  },
});
