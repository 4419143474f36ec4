// Process and raw-HTTP helpers for model-bridge-security.test.ts (the TypeScript project has no
// Node types): start the real `scripts/model-bridge.mjs`, send requests with any Host header.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

export { freePort } from "../../../scripts/lib/net.mjs";

const script = new URL("../../../scripts/model-bridge.mjs", import.meta.url).pathname;

export const tempDir = () => mkdtempSync(join(tmpdir(), "fj-bridge-"));
export const remove = (dir) => rmSync(dir, { recursive: true, force: true });
export const tokenPath = (dir) => join(dir, "state", "model-bridge-token");
export const readToken = (dir) => readFileSync(tokenPath(dir), "utf8").trim();
export const tokenMode = (dir) => statSync(tokenPath(dir)).mode & 0o777;

/** Starts the script with a state dir under `dir`; resolves when it listens, with what it printed. */
export function startBridge(dir, port, env) {
  const child = spawn(process.execPath, [script], {
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      BRIDGE_STATE_DIR: join(dir, "state"),
      BRIDGE_PORT: String(port),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.setEncoding("utf8");
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("model-bridge on http://127.0.0.1")) resolve({ out, stop: () => stop(child) });
    });
    child.on("exit", (code) => reject(new Error(`bridge exited ${code}: ${out}`)));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** A raw HTTP request to 127.0.0.1:port (fetch would not let us set Host). */
export function send(port, opts) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: opts.body === undefined ? "GET" : "POST",
        path: opts.path ?? "/v1/chat/completions",
        headers: opts.headers,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || "null") }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}
