import { workerdBench } from "./lib/workerd-config";

// `npm run bench:roundtrips`: D1 round trips per request inside workerd (bench/roundtrips.ts: reads,
// the alert email, the statement import; bench/roundtrips-writes.ts: the main write routes).
export default workerdBench({
  include: ["bench/roundtrips.ts", "bench/roundtrips-writes.ts", "bench/roundtrips-sweep.ts"],
  bindings: { TRIPS: process.env.TRIPS ?? "" },
  // The sweep's model tasks (summaries, insights, receipt parse) call the fake model server.
  globalSetup: ["./test/setup/global-model.ts"],
  testTimeout: 5 * 60_000,
});
