import { workerdBench } from "./lib/workerd-config";

// `npm run bench:household`: every operation at ten times a heavy household under D1's production
// limits and the Paid plan's per-invocation budget (bench/household-10x.ts). HOUSEHOLD_ROWS sets
// the journal's size (default 1,000,000); HOUSEHOLD_EXPORT=0 skips the backup's steps.
export default workerdBench({
  include: ["bench/household-10x.ts"],
  bindings: {
    HOUSEHOLD_ROWS: process.env.HOUSEHOLD_ROWS ?? "",
    HOUSEHOLD_EXPORT: process.env.HOUSEHOLD_EXPORT ?? "",
  },
  testTimeout: 60 * 60_000,
});
