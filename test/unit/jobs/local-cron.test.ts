import { describe, expect, it } from "vitest";
import { devOrigin, dueCrons } from "../../../scripts/lib/local-cron.mjs";
import { CRON } from "../../../src/jobs/crons";
import wranglerToml from "../../../wrangler.toml?raw";

// The local cron driver must fire exactly what wrangler.toml declares, when Cloudflare would.
describe("local cron driver", () => {
  it("fires every minute, the daily job at 03:30 UTC and the monthly one at 17:00 UTC on the 8th", () => {
    expect(dueCrons(new Date("2026-11-21T12:34:00Z"))).toEqual(["* * * * *"]);
    expect(dueCrons(new Date("2026-11-21T03:30:00Z"))).toEqual(["* * * * *", "30 3 * * *"]);
    expect(dueCrons(new Date("2026-12-08T17:00:00Z"))).toEqual(["* * * * *", "0 17 8 * *"]);
    expect(dueCrons(new Date("2026-12-09T17:00:00Z"))).toEqual(["* * * * *"]);
  });
  it("knows every cron wrangler.toml declares, and the Worker dispatches the same expressions", () => {
    const declared = JSON.parse(/^crons = (\[.*\])$/m.exec(wranglerToml)?.[1] ?? "[]") as string[];
    const fired = new Set(
      ["2026-11-21T12:34:00Z", "2026-11-21T03:30:00Z", "2026-12-08T17:00:00Z"].flatMap((t) =>
        dueCrons(new Date(t)),
      ),
    );
    expect([...fired].sort()).toEqual([...declared].sort());
    expect(Object.values(CRON).sort()).toEqual([...declared].sort());
    // The Worker's dispatch table (src/jobs/schedule.ts) is typed to have exactly CRON's keys;
    // test/integration/jobs.test.ts checks its duties at run time.
  });
  it("finds wrangler dev's address in npm start's arguments", () => {
    expect(devOrigin([])).toBe("http://localhost:8787");
    expect(devOrigin(["--port", "9000", "--ip", "127.0.0.1"])).toBe("http://127.0.0.1:9000");
    expect(devOrigin(["--port=9001", "--ip=0.0.0.0"])).toBe("http://127.0.0.1:9001");
  });
});
