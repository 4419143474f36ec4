import { workerdBench } from "./lib/workerd-config";

// `npx vitest run -c bench/ingest.config.ts`: the ingest-rate bench inside workerd with local D1/R2.
export default workerdBench({
  include: ["bench/ingest.ts"],
  bindings: { BENCH_COUNT: process.env.BENCH_COUNT ?? "10000" },
  testTimeout: 30 * 60_000,
});
