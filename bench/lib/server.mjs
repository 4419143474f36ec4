// Starts the Worker under wrangler dev on a free port with its own state folder; for benchmarks.
import { spawn } from "node:child_process";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDashboardDist, root } from "../../scripts/lib/dashboard.mjs";
import { freePort } from "../../scripts/lib/net.mjs";
import { applyMigrations, wranglerBin } from "../../scripts/lib/wrangler.mjs";

export { freePort };

export async function startServer({ vars = {}, prepare } = {}) {
  ensureDashboardDist();
  const state = mkdtempSync(join(tmpdir(), "fj-bench-"));
  applyMigrations({ persistTo: state });
  if (prepare) await prepare(state);
  const port = await freePort();
  const varArgs = Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const child = spawn(
    wranglerBin,
    [
      "dev",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      state,
      "--log-level",
      "warn",
      ...varArgs,
    ],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    state,
    /** Stops the Worker and keeps the state folder (to copy it); stop() later removes it. */
    async stopServerOnly() {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      await new Promise((r) => child.once("exit", r).once("error", r));
    },
    stop() {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      rmSync(state, { recursive: true, force: true });
    },
  };
}

export function percentiles(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  return { n: s.length, p50: at(50), p95: at(95), p99: at(99), max: s[s.length - 1] };
}

export const fmt = (ms) => `${ms.toFixed(2)} ms`;

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * GET through node:http on a kept-alive connection, reading the whole body. The benches time
 * requests with this rather than fetch(): Node's fetch hands a body over as a web stream, which
 * costs ~10 ms of the client's own time on a 1 MB response (the CSV export), time the server
 * never spends. Resolves to { status, bytes }.
 */
export function get(url) {
  return send(url, { method: "GET" });
}

/** Any request (a write the bench times, with its body) on the same kept-alive connection. */
export function send(url, { method = "POST", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? null : Buffer.from(body);
    const req = http.request(
      url,
      { agent, method, headers: data ? { ...headers, "content-length": data.length } : headers },
      (res) => {
        let bytes = 0;
        let head = "";
        res.on("data", (chunk) => {
          bytes += chunk.length;
          // A refusal's envelope, for the bench's error message.
          if ((res.statusCode ?? 0) >= 300 && head.length < 300) head += chunk.toString("utf8");
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes, head }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(data ?? undefined);
  });
}
