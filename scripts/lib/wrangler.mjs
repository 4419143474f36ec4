// Shared helpers for the local scripts: find --persist-to in argv, run wrangler.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { root } from "./dashboard.mjs";

export const wranglerBin = join(root, "node_modules", ".bin", "wrangler");

/** Splits `--persist-to DIR` / `--persist-to=DIR` and `--remote` out of argv. */
export function stateArgs(argv) {
  let persistTo = null;
  let remote = false;
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--persist-to") persistTo = argv[++i];
    else if (a.startsWith("--persist-to=")) persistTo = a.slice("--persist-to=".length);
    else if (a === "--remote") remote = true;
    else rest.push(a);
  }
  return { persistTo, remote, rest };
}

/** `--local [--persist-to DIR]` or `--remote`, for wrangler d1 commands. */
export function d1Target({ persistTo, remote }) {
  if (remote) return ["--remote"];
  return persistTo ? ["--local", "--persist-to", persistTo] : ["--local"];
}

export function runWrangler(args, opts = {}) {
  const res = spawnSync(wranglerBin, args, {
    cwd: root,
    stdio: opts.capture ? ["ignore", "pipe", "pipe"] : "inherit",
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: process.env.CI ?? "true" },
  });
  if (res.status !== 0 && !opts.allowFail) {
    if (opts.capture) process.stderr.write(res.stderr ?? "");
    throw new Error(`wrangler ${args.slice(0, 3).join(" ")} failed (exit ${res.status})`);
  }
  return res;
}

export function applyMigrations(target) {
  runWrangler(["d1", "migrations", "apply", "DB", ...d1Target(target)]);
}
