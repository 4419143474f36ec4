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

/**
 * Applies migrations/ to the target. Wrangler prints its whole migration table once per migration
 * it applies; with `quiet`, its output is kept and one line says what happened (all of it is
 * printed when wrangler fails). Returns the names of the migrations applied.
 */
export function applyMigrations(target, { quiet = false, log = console.log } = {}) {
  const args = ["d1", "migrations", "apply", "DB", ...d1Target(target)];
  if (!quiet) {
    runWrangler(args);
    return [];
  }
  const res = runWrangler(args, { capture: true, allowFail: true });
  const out = `${res.stdout ?? ""}${res.stderr ?? ""}`;
  if (res.status !== 0) {
    process.stderr.write(out);
    throw new Error(`wrangler d1 migrations apply failed (exit ${res.status})`);
  }
  const applied = migrationsApplied(out);
  log(
    applied.length
      ? `database: ${applied.length} migration${applied.length === 1 ? "" : "s"} applied (${applied[0]} … ${applied.at(-1)})`
      : "database: up to date",
  );
  return applied;
}

/** The migration names wrangler's output lists as applied (✅) in its last table. */
export function migrationsApplied(output) {
  if (!/Migrations to be applied/.test(output)) return [];
  const names = [...output.matchAll(/│\s*(\d{4}_[\w.-]+\.sql)\s*│/g)].map((m) => m[1]);
  return [...new Set(names)];
}
