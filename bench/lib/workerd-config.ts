import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/** The repository root (this file is bench/lib/). */
export const root = decodeURIComponent(new URL("../..", import.meta.url).pathname).replace(/\/$/, "");

/**
 * A bench run inside workerd with local D1/R2 and the migrations applied, like the integration
 * project: the benches differ only in their files, extra bindings, global setups and time limit.
 */
export function workerdBench(opts: {
  include: string[];
  bindings?: Record<string, string>;
  globalSetup?: string[];
  testTimeout: number;
}) {
  return defineConfig({
    root,
    plugins: [
      cloudflareTest(async () => ({
        wrangler: { configPath: `${root}/wrangler.toml` },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: await readD1Migrations(`${root}/migrations`),
            IMAP_HOST: "",
            MODEL_API_KEY: "",
            ...opts.bindings,
          },
        },
      })),
    ],
    test: {
      include: opts.include,
      setupFiles: ["./test/setup/apply-migrations.ts"],
      globalSetup: ["./test/setup/global.ts", ...(opts.globalSetup ?? [])],
      testTimeout: opts.testTimeout,
      hookTimeout: 60_000,
    },
  });
}
