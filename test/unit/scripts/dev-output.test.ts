import { describe, expect, it } from "vitest";
import { devOutputFilter } from "../../../scripts/lib/dev-output.mjs";
import { migrationsApplied } from "../../../scripts/lib/wrangler.mjs";

// wrangler dev's real output under `npm start` offline (trimmed from a run of wrangler 4.156).
const WRANGLER_DEV = `
 ⛅️ wrangler 4.156.2 (update available 4.164.0)
───────────────────────────────────────────────
Your Worker has access to the following bindings:
Binding                                                         Resource                  Mode
env.JOB_SLOT (JobSlot)                                          Durable Object            local
env.DB (finance-journal)                                        D1 Database               local
env.DEMO_MODE ("false")                                         Environment Variable      local

[wrangler:warn] Unable to fetch the \`Request.cf\` object! Falling back to a default placeholder...
Error: getaddrinfo ENOTFOUND workers.cloudflare.com
    at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:122:26)
    at GetAddrInfoReqWrap.callbackTrampoline (node:internal/async_hooks:130:17)
\u001b[33m▲ \u001b[43;33m[\u001b[43;30mWARNING\u001b[43;33m]\u001b[0m \u001b[1mScheduled Workers are not automatically triggered during local development.\u001b[0m

  To manually trigger a scheduled event, run:
    curl "http://localhost:8911/cdn-cgi/local/scheduled"
  For more details, see https://developers.cloudflare.com/workers/configuration/cron-triggers/#test-cron-triggers-locally


⎔ Starting local server...
[wrangler:info] Ready on http://localhost:8911
[wrangler:info] GET /api/v1/health 200 OK (12ms)
[wrangler:info] GET /cdn-cgi/handler/scheduled 200 OK (3ms)
{"level":"error","msg":"imap poll failed","reason":"connection refused"}
`;

describe("npm start's output filter", () => {
  it("keeps the Worker's own lines and drops banners, bindings, stack traces and request lines", () => {
    let ready = "";
    const filter = devOutputFilter({ verbose: false, onReady: (url: string) => (ready = url) });
    const kept = WRANGLER_DEV.split("\n")
      .map(filter)
      .filter((l): l is string => l !== null && l !== "");
    expect(ready).toBe("http://localhost:8911");
    expect(kept).toEqual(['{"level":"error","msg":"imap poll failed","reason":"connection refused"}']);
  });

  it("sends the Worker's structured lines to the log file (errors also to the terminal) and drops the CIMD note", () => {
    const logged: string[] = [];
    const filter = devOutputFilter({ verbose: false, logLine: (l: string) => logged.push(l) });
    const lines = [
      ...Array.from({ length: 700 }, (_, i) => `{"level":"info","event":"ingest.outcome","n":${i}}`),
      '{"level":"warn","event":"ingest.attention_mark_failed"}',
      '{"level":"error","event":"queue.failed"}',
      '\u001b[33m▲ [WARNING]\u001b[0m CIMD (Client ID Metadata Document) is disabled: add \'"compatibility_flags": ["global_fetch_strictly_public"]\' to your wrangler.jsonc to enable.',
    ];
    const kept = lines.map(filter).filter((l): l is string => l !== null && l !== "");
    expect(kept).toEqual(['{"level":"error","event":"queue.failed"}']);
    expect(logged).toHaveLength(702);
  });

  it("shows everything with FJ_VERBOSE=1", () => {
    const filter = devOutputFilter({ verbose: true });
    const lines = WRANGLER_DEV.split("\n");
    expect(lines.map(filter)).toEqual(lines);
  });

  it("lets an unknown wrangler warning through", () => {
    const filter = devOutputFilter({ verbose: false });
    expect(filter("[wrangler:warn] Port 8787 is in use")).toBe("[wrangler:warn] Port 8787 is in use");
  });
});

describe("migrations reported once", () => {
  it("reads the applied names from wrangler's last table, once each", () => {
    const table = (names: string[]) =>
      `┌──┐\n│ name │ status │\n${names.map((n) => `│ ${n}  │ ✅     │`).join("\n")}\n└──┘\n`;
    const out = `Migrations to be applied:\n${table(["0001_init.sql", "0002_auth.sql"])}${table(["0001_init.sql", "0002_auth.sql"])}`;
    expect(migrationsApplied(out)).toEqual(["0001_init.sql", "0002_auth.sql"]);
    expect(migrationsApplied("✅ No migrations to apply!")).toEqual([]);
  });
});
