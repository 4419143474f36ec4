import { workerdBench } from "./lib/workerd-config";

// `npm run bench:roundtrips`: D1 round trips per request inside workerd (bench/roundtrips.ts: reads,
// the alert email, the statement import; bench/roundtrips-writes.ts: the main write routes).
export default workerdBench({
  include: [
    "bench/roundtrips.ts",
    "bench/roundtrips-writes.ts",
    "bench/roundtrips-sweep.ts",
    "bench/roundtrips-reads.ts",
  ],
  bindings: { TRIPS: process.env.TRIPS ?? "" },
  testTimeout: 5 * 60_000,
});
