import { workerdBench } from "./lib/workerd-config";

// `npx vitest run -c bench/statements.config.ts`: the statement parse + reconcile bench inside workerd with local D1/R2.
export default workerdBench({
  include: ["bench/statements.ts"],
  bindings: { BENCH_COUNT: process.env.BENCH_COUNT ?? "100000" },
  globalSetup: ["./bench/lib/cpu-probe.mjs"],
  testTimeout: 30 * 60_000,
});
